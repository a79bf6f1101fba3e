import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { methodsOf } from './endpoint.ts';
import { allEndpoints } from './endpoints/index.ts';
import { breakingChanges } from './openapi-compat.ts';
import { buildOpenApiDocument, openApiText } from './openapi.ts';

type Json = Record<string, unknown>;

const root = path.resolve(import.meta.dirname, '../../..');
const redocly = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
}

/** Lints a document with the repository's redocly.yaml, as `npx redocly lint` does, offline (no telemetry, no update check). */
function lint(doc: object): Problem[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  try {
    const res = spawnSync(
      process.execPath,
      [redocly, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=json', '--max-problems=100000'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const out = res.stdout.slice(res.stdout.indexOf('{'));
    return (JSON.parse(out) as { problems: Problem[] }).problems;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as {
    paths: Record<string, Record<string, { operationId: string; security: object[]; 'x-codes': { code: number }[] }>>;
  };
  const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));

  it('lints clean with @redocly/cli: no errors', { timeout: 60_000 }, () => {
    const problems = lint(doc);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('names every call once, from its method and path, and says who may call it', () => {
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/api/forex/kline']?.get?.operationId).toBe('getV1ForexKline');
    expect(doc.paths['/v1/api/forex/submit']?.post?.security).toEqual([
      { session: [] },
      { apiKey: [] },
      { apiKeyId: [], apiKeyTimestamp: [], apiKeySignature: [] },
    ]);
    expect(doc.paths['/api/user/info']?.get?.['x-codes'].map((c) => c.code)).toContain(999);
    expect(doc.paths['/v1/api/forex/kline']?.get?.security).toEqual([]);
    const staff = allEndpoints().find(({ endpoint }) => endpoint.auth === 'staff')!.endpoint;
    expect(doc.paths[staff.path]?.[methodsOf(staff)[0]!.toLowerCase()]?.security).toEqual([{ staffSession: [] }]);
  });

  it('documents both status modes: HTTP 200 by default, each refusal status with X-HTTP-Status: standard', () => {
    const kline = doc.paths['/v1/api/forex/kline']!.get as unknown as { responses: Record<string, unknown>; parameters: unknown[] };
    expect(Object.keys(kline.responses)).toEqual(['200', '400', '404', '422', '429']);
    expect(kline.parameters).toContainEqual({ $ref: '#/components/parameters/HttpStatus' });
    const submit = doc.paths['/v1/api/forex/submit']!.post as unknown as { responses: Record<string, unknown> };
    expect(Object.keys(submit.responses)).toEqual(['200', '400', '401', '403', '404', '409', '422', '429']);
    const responses = (doc as unknown as { components: { responses: Record<string, { description: string; headers?: object }> } })
      .components.responses;
    expect(responses.Status429!.headers).toHaveProperty('Retry-After');
    expect(responses.Status401!.description).toMatch(/^Only with `X-HTTP-Status: standard`/);
  });

  it('lists every enveloped call of the endpoint table except the test controls', () => {
    const expected = allEndpoints()
      .filter(({ endpoint }) => !endpoint.raw && !endpoint.tags.includes('test'))
      .reduce((n, { endpoint }) => n + methodsOf(endpoint).length, 0);
    expect(operations.length).toBe(expected);
  });
});

describe('the committed OpenAPI document (docs/openapi.json)', () => {
  const committedText = fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8');
  const committed = JSON.parse(committedText) as Json;
  const generated = JSON.parse(openApiText()) as Json;

  it('breaks no existing client: no call, request field or answer field of the snapshot is gone', () => {
    expect(
      breakingChanges(committed, generated),
      'These changes break clients written against docs/openapi.json. If the break is deliberate (announced to API users), run `npm run docs:openapi` and commit the new document with the reason.',
    ).toEqual([]);
  });

  it('is the document the endpoint table builds now', () => {
    expect(
      openApiText() === committedText,
      'docs/openapi.json is out of date: run `npm run docs:openapi`, review the diff (it is what API clients read) and commit it.',
    ).toBe(true);
  });

  const copy = () =>
    structuredClone(committed) as { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };
  const props = (schema: Json) => schema.properties as Record<string, Json>;

  it('catches a renamed answer field, a renamed or newly required request field and a removed call; passes an addition', () => {
    const renamed = copy();
    const data = renamed.components.schemas.TradingSubmitData!;
    const { Id, ...rest } = props(data);
    data.properties = { ...rest, OrderId: Id };
    expect(breakingChanges(committed, renamed)).toContain(
      'POST /v1/api/forex/submit: answer field 200 application/json:data.Id was removed or renamed',
    );

    const input = copy();
    const submitInput = input.components.schemas.TradingSubmitInput!;
    const { forex_id, ...others } = props(submitInput);
    submitInput.properties = { ...others, forexId: forex_id };
    expect(breakingChanges(committed, input)).toEqual(
      expect.arrayContaining(['POST /v1/api/forex/submit: request field application/json:forex_id was removed or renamed']),
    );
    const query = copy();
    const kline = query.paths['/v1/api/forex/kline']!.get as { parameters: { name: string }[] };
    kline.parameters.find((p) => p.name === 'limit')!.name = 'size';
    expect(breakingChanges(committed, query)).toEqual(['GET /v1/api/forex/kline: request field query:limit was removed or renamed']);

    const removed = copy();
    delete removed.paths['/v1/api/forex/kline']!.post;
    expect(breakingChanges(committed, removed)).toEqual(['POST /v1/api/forex/kline: the call was removed']);

    const added = copy();
    props(added.components.schemas.TradingSubmitData!).note = { type: 'string' };
    props(added.components.schemas.TradingSubmitInput!).note = { type: 'string' };
    added.paths['/v1/api/forex/new_call'] = { get: { responses: {} } };
    expect(breakingChanges(committed, added)).toEqual([]);

    const required = copy();
    const inputSchema = required.components.schemas.TradingSubmitInput!;
    props(inputSchema).note = { type: 'string' };
    inputSchema.required = [...((inputSchema.required as string[] | undefined) ?? []), 'note'];
    expect(breakingChanges(committed, required)).toContain(
      'POST /v1/api/forex/submit: request field application/json:note is newly required',
    );
  });
});
