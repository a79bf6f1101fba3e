import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodsOf } from '@tp/contract/endpoint';
import { allEndpoints } from '@tp/contract/endpoints/index';
import { declaredRoutes } from '../src/http/route.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The endpoint table is the one list of the product's HTTP calls: every endpoint in it is served, every
 * API route the server registers comes from it, and the OpenAPI page lists every enveloped one.
 */
describe('the endpoint table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { TRADING_TEST_CONTROLS: '1' });
  });
  afterAll(() => t.close());

  const table = allEndpoints();

  it('declares each path and method once', () => {
    const keys = table.flatMap(({ endpoint }) => methodsOf(endpoint).map((m) => `${m} ${endpoint.path}`));
    expect(keys.length).toBeGreaterThan(150);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is served whole: every endpoint answers on every method it declares', () => {
    const missing = table.flatMap(({ module, name, endpoint }) =>
      methodsOf(endpoint)
        .filter((method) => !t.app.hasRoute({ method, url: endpoint.path.replace(/:(\w+)/g, 'x') }) && !t.app.hasRoute({ method, url: endpoint.path }))
        .map((method) => `${module}.${name}: ${method} ${endpoint.path}`),
    );
    expect(missing).toEqual([]);
  });

  it('is the only source of routes: every enveloped route the server registers is in the table', () => {
    const inTable = new Set(table.flatMap(({ endpoint }) => methodsOf(endpoint).map((m) => `${m} ${endpoint.path}`)));
    const notInTable = declaredRoutes(t.ctx).flatMap((def) =>
      (Array.isArray(def.method) ? def.method : [def.method]).map((m) => `${m} ${def.url}`).filter((key) => !inTable.has(key)),
    );
    expect(notInTable).toEqual([]);
  });

  it('documents every enveloped endpoint on the OpenAPI page', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const undocumented = table
      .filter(({ endpoint }) => !endpoint.raw)
      .flatMap(({ module, name, endpoint }) =>
        methodsOf(endpoint)
          .filter((m) => !doc.paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[m.toLowerCase()])
          .map((m) => `${module}.${name}: ${m} ${endpoint.path}`),
      );
    expect(undocumented).toEqual([]);
  });
});
