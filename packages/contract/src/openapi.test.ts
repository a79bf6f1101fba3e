import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { methodsOf } from './endpoint.ts';
import { allEndpoints } from './endpoints/index.ts';
import { buildOpenApiDocument } from './openapi.ts';

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

  it('lists every enveloped call of the endpoint table except the test controls', () => {
    const expected = allEndpoints()
      .filter(({ endpoint }) => !endpoint.raw && !endpoint.tags.includes('test'))
      .reduce((n, { endpoint }) => n + methodsOf(endpoint).length, 0);
    expect(operations.length).toBe(expected);
  });
});
