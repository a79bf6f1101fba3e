/**
 * `npm run bench:push-journal`: what keeping a NOTICE / FOREX_CLOSED for replay costs on several
 * servers. Each such push takes one Lua call in Redis (the user's next seq, the entry kept, the old
 * ones trimmed) before it is published; the limit is the same push published bare.
 *  1. One at a time (the engine's ramp: a close now and then): latency of append + publish against
 *     publish alone.
 *  2. A burst: BENCH_JOURNAL_BURST pushes (default 467, the engine benchmark's burst of closes) to
 *     as many users sent at once, as the engine's commits do: pushes/s and time to the last one.
 * REDIS_URL (default redis://127.0.0.1:6379); keys under a random prefix, deleted at the end.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import type { JournaledPush } from '../apps/server/src/platform/push-journal.ts';
import { RedisPushJournal } from '../apps/server/src/platform/push-journal.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SINGLE = Number(process.env.BENCH_JOURNAL_SINGLE ?? 3_000);
const BURST = Number(process.env.BENCH_JOURNAL_BURST ?? 467);
const ROUNDS = Number(process.env.BENCH_JOURNAL_ROUNDS ?? 20);
const prefix = `bench-${randomBytes(4).toString('hex')}:`;
const redis = new Redis(url, { lazyConnect: true });
await redis.connect();
const journal = new RedisPushJournal(redis, prefix, { windowMs: 5 * 60_000, maxEntries: 100 });

const push = (id: number): JournaledPush => ({ type: 'FOREX_CLOSED', id: [id] });
const channel = (userId: number) => `${prefix}user:${userId}`;
const pct = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] ?? NaN;
const ms = (v: number) => `${v.toFixed(3)} ms`;

/** The product: the journal's append, then the publish with the seq it gave. */
async function journaled(userId: number, id: number): Promise<void> {
  const p = push(id);
  const seq = await journal.append(userId, p);
  await redis.publish(channel(userId), JSON.stringify(seq === null ? p : { ...p, seq }));
}
/** The limit: the same push published without a seq. */
async function bare(userId: number, id: number): Promise<void> {
  await redis.publish(channel(userId), JSON.stringify(push(id)));
}

async function single(fn: (u: number, id: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SINGLE; i++) {
    const t = performance.now();
    await fn(i % 500, i);
    out.push(performance.now() - t);
  }
  return out;
}

async function burst(fn: (u: number, id: number) => Promise<void>): Promise<number[]> {
  const perSecond: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    await Promise.all(Array.from({ length: BURST }, (_, i) => fn(i, r * BURST + i)));
    perSecond.push(BURST / ((performance.now() - t) / 1000));
  }
  return perSecond;
}

// Warm-up (script loaded, connections hot), then the two sides in turn, twice, so drift hits both.
await single(journaled);
await single(bare);
const results = { journaled: { single: [] as number[], burst: [] as number[] }, bare: { single: [] as number[], burst: [] as number[] } };
for (let round = 0; round < 2; round++) {
  for (const [name, fn] of [
    ['journaled', journaled],
    ['bare', bare],
  ] as const) {
    results[name].single.push(...(await single(fn)));
    results[name].burst.push(...(await burst(fn)));
  }
}
const keys = await redis.keys(`${prefix}*`);
if (keys.length) await redis.del(...keys);
await redis.quit();

const line = (name: string, r: { single: number[]; burst: number[] }) =>
  `${name.padEnd(28)} one at a time p50 ${ms(pct(r.single, 50))}, p99 ${ms(pct(r.single, 99))}; burst of ${BURST}: ${pct(r.burst, 50).toFixed(0)} pushes/s (median of ${r.burst.length})`;
console.log(`push journal on ${url.replace(/\/\/[^@]*@/, '//')}: ${SINGLE * 2} pushes one at a time and ${ROUNDS * 2} bursts per side`);
console.log(line('append + publish (product)', results.journaled));
console.log(line('publish alone (limit)', results.bare));
const p50 = pct(results.journaled.single, 50) / pct(results.bare.single, 50);
const share = pct(results.journaled.burst, 50) / pct(results.bare.burst, 50);
console.log(`ratio: one at a time p50 ${p50.toFixed(2)}x the limit's; burst ${(share * 100).toFixed(0)}% of the limit's pushes/s`);
