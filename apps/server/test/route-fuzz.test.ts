import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/route.ts';
import { newUser, staffToken } from '../src/modules/funding/test-helpers.ts';
import { createTestApp, dbTargets, type TestApp } from './test-app.ts';

/**
 * Issue 17: every declared route, fed schema-shaped junk as a guest, a user and a staff admin,
 * answers an envelope without a 5xx and changes nothing. Each field of a request gets a value
 * its kind of field must refuse, so no request may succeed in writing.
 */

type Kind = 'string' | 'number' | 'enum' | 'boolean' | 'array' | 'any';

/** The zod definition under preprocess, optional, default and transform wrappers. */
function leafOf(schema: z.ZodType): { type: string } {
  let def = (schema as unknown as { _zod: { def: any } })._zod.def;
  for (let depth = 0; depth < 10; depth++) {
    if (def.type === 'pipe') def = (def.in._zod.def.type === 'transform' ? def.out : def.in)._zod.def;
    else if (['optional', 'default', 'nullable', 'prefault', 'catch', 'readonly'].includes(def.type)) def = def.innerType._zod.def;
    else break;
  }
  return def;
}

/** The fields of an input schema and their kinds. */
function fieldsOf(schema: z.ZodType): [string, Kind][] {
  const top = leafOf(schema) as { type: string; shape?: Record<string, z.ZodType> };
  if (top.type !== 'object' || !top.shape) return [];
  return Object.entries(top.shape).map(([name, field]) => {
    const type = leafOf(field).type;
    const kind: Kind =
      type === 'string'
        ? 'string'
        : type === 'number'
          ? 'number'
          : type === 'enum'
            ? 'enum'
            : type === 'boolean'
              ? 'boolean'
              : type === 'array'
                ? 'array'
                : 'any';
    return [name, kind];
  });
}

const NUL = ['\u0000', 'a\u0000b', 'ok\u0007', '\u001b[2J'];
const NESTED: unknown[] = [{ a: { b: [1, { c: 2 }] } }, [1, [2, 3]], { toString: 'x' }, []];
const HUGE = 'x'.repeat(250_000);
const NUMBERS = [
  '2147483648',
  2_147_483_648,
  '9007199254740993',
  -2_147_483_649,
  '0x1',
  '0x2',
  '1e3',
  '1e400',
  '+1',
  ' 1',
  '1.5',
  'NaN',
  'Infinity',
  '１',
  '0b1',
  '1_000',
];
const AMOUNTS = ['1e3', '0x10', '99999999999999999999', '999999999999999999', '-0', 'NaN', '1.0000000001', '１'];

/** Values each kind of field must refuse. */
const junkFor: Record<Kind, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom(...NUL, ...NESTED, HUGE),
  number: fc.constantFrom(...NUMBERS, ...NUL, ...NESTED),
  enum: fc.constantFrom('0x1', '1e0', ' 1', ...NUL, ...NESTED),
  boolean: fc.constantFrom(...NUL, ...NESTED),
  array: fc.constantFrom('{"a":1}', '[1', ...NUL, { 0: 'x' }),
  any: fc.constantFrom(...AMOUNTS, ...NUL, ...NESTED),
};
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** A query string: arrays as repeated keys, objects as bracketed keys (both reach the server as text). */
function toQuery(params: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (Array.isArray(value)) value.forEach((v) => add(key, v));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else qs.append(key, String(value));
  };
  for (const [k, v] of Object.entries(params)) add(k, v);
  return qs.toString();
}

/** Audit rows that record an attempt or a read rather than a change: junk sign-ins and outbox reads are logged by design. */
const ATTEMPT_AUDITS = ['staff.sign_in', 'staff.sign_in_failed', 'staff.sign_in_refused', 'staff.sign_out', 'staff.outbox_read'];

/** Every table's rows, hashed: any write shows, besides the audit log's record of attempts and reads. */
async function digest(t: TestApp): Promise<Record<string, string>> {
  const tables = await t.ctx.db.execute<{ name: string }>(
    sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of (tables as unknown as { rows?: { name: string }[] }).rows ?? (tables as unknown as { name: string }[])) {
    const table = sql.identifier(name);
    const only =
      name === 'staff_audit_log'
        ? sql`where r.action not in (${sql.join(
            ATTEMPT_AUDITS.map((a) => sql`${a}`),
            sql`, `,
          )})`
        : sql``;
    const res = await t.ctx.db.execute<{ n: string; h: string }>(
      sql`select count(*)::text as n, coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as h from ${table} r ${only}`,
    );
    const row = ((res as unknown as { rows?: { n: string; h: string }[] }).rows ?? (res as unknown as { n: string; h: string }[]))[0]!;
    out[name] = `${row.n}:${row.h}`;
  }
  return out;
}

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 24);

describe.each(dbTargets)('route fuzzing on %s', (target) => {
  let t: TestApp;
  const tokens: Record<'guest' | 'user' | 'staff', string | undefined> = { guest: undefined, user: undefined, staff: undefined };
  beforeAll(async () => {
    t = await createTestApp(target);
    tokens.user = (await newUser(t, { balance: '1000' })).token;
    tokens.staff = await staffToken(t, ['admin']);
  });
  afterAll(async () => t?.close());

  it('answers every route with an envelope, never a 5xx, and changes nothing', async () => {
    const routes = declaredRoutes(t.ctx).filter((r) => r.input && fieldsOf(r.input).length > 0);
    expect(routes.length).toBeGreaterThan(60);
    const before = await digest(t);
    const faults: string[] = [];

    for (const route of routes) {
      const fields = fieldsOf(route.input!);
      const method = (Array.isArray(route.method) ? route.method[0] : route.method) as 'GET' | 'POST' | 'DELETE';
      const request = fc.record({
        params: fc.record(Object.fromEntries(fields.map(([name, kind]) => [name, junkFor[kind]]))),
        extra: fc.option(fc.constantFrom(...PROTOTYPE_KEYS), { nil: undefined }),
        who: fc.constantFrom('guest', 'user', 'staff') as fc.Arbitrary<'guest' | 'user' | 'staff'>,
        json: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, extra, who, json }) => {
          const body: Record<string, unknown> = { ...params };
          if (extra) Object.defineProperty(body, extra, { value: { polluted: 1 }, enumerable: true });
          const headers: Record<string, string> = { lang: 'en' };
          if (tokens[who]) headers.authorization = tokens[who]!;
          let url = route.url;
          let payload: string | undefined;
          if (method === 'GET' || method === 'DELETE') url += `?${toQuery(body)}`;
          else if (json) {
            headers['content-type'] = 'application/json';
            payload = JSON.stringify(body);
          } else {
            headers['content-type'] = 'application/x-www-form-urlencoded';
            payload = toQuery(body);
          }
          const res = await t.app.inject({ method, url, headers, payload });
          const answer = res.json() as { code?: unknown; msg?: unknown };
          const wellFormed = typeof answer.code === 'number' && typeof answer.msg === 'string' && 'data' in answer;
          if (res.statusCode >= 500 || !wellFormed) {
            faults.push(
              `${method} ${route.url} as ${who} ${JSON.stringify(body).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: Number(process.env.FUZZ_SEED ?? 17) },
      );
    }

    expect(faults).toEqual([]);
    expect(await digest(t)).toEqual(before);
  }, 120_000);
});
