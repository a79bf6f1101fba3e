import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '@tp/contract/endpoint';
import { route } from '../src/http/route.ts';
import { call, createTestApp, type TestApp } from './test-app.ts';

/**
 * A handler's answer is serialized from its endpoint's output schema and, in tests, checked strictly:
 * an undeclared field or a missing required one is an error, not an answer a client would receive.
 */
const Output = z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable() });
const make = (path: string) => endpoint({ method: 'GET', path, auth: 'none', output: Output, summary: 'test', tags: ['test'] });
const good = make('/api/test/output/good');
const extra = make('/api/test/output/extra');
const missing = make('/api/test/output/missing');
const wrongType = make('/api/test/output/wrong-type');

async function appWith(env: Record<string, string>) {
  return createTestApp('pglite', env, {}, (app, ctx) => {
    route(app, ctx, good, () => ({ id: 7, name: 'EURUSD', note: null }));
    // Each wrong shape is cast past the type checker on purpose: that is what a test must catch.
    route(app, ctx, extra, () => ({ id: 7, name: 'EURUSD', note: null, password_hash: 'secret' }) as never);
    route(app, ctx, missing, () => ({ id: 7, note: null }) as never);
    route(app, ctx, wrongType, () => ({ id: '7', name: 'EURUSD', note: null }) as never);
  });
}

describe('endpoint output schemas, checked (NODE_ENV=test)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith({});
  });
  afterAll(() => t.close());

  it('answers a declared shape exactly', async () => {
    const res = await t.app.inject({ method: 'GET', url: good.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ code: 1, msg: expect.any(String), data: { id: 7, name: 'EURUSD', note: null } });
  });

  it('fails on a field the output schema does not declare', async () => {
    const res = await t.app.inject({ method: 'GET', url: extra.path });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
  });

  it('fails on a required field the handler misses', async () => {
    const res = await t.app.inject({ method: 'GET', url: missing.path });
    expect(res.statusCode).toBe(500);
  });

  it('fails on a value of another type', async () => {
    const res = await t.app.inject({ method: 'GET', url: wrongType.path });
    expect(res.statusCode).toBe(500);
  });
});

describe('endpoint output schemas in production (CHECK_RESPONSES off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith({ CHECK_RESPONSES: '0' });
  });
  afterAll(() => t.close());

  it('never sends a field the schema does not declare', async () => {
    const body = await call(t, 'GET', extra.path);
    expect(body.data).toEqual({ id: 7, name: 'EURUSD', note: null });
  });

  it('refuses to answer without a required field', async () => {
    const res = await t.app.inject({ method: 'GET', url: missing.path });
    expect(res.statusCode).toBe(500);
  });
});
