/**
 * `npm run bench:engine`: the trading engine with 100,000 open positions (each with take-profit and
 * stop-loss) and 10,000 pending orders over 30 symbols.
 *  1. 100,000 ticks that trigger nothing (stop-out lines included): ticks per second, straight into
 *     the engine and through the market's publishTick.
 *  2. Stop-out after conversion moves: 300 more accounts hold one position each whose profit
 *     converts through another symbol (EURGBP through GBPUSD, JPN225 through USDJPY) or through
 *     itself (USDJPY); GBPUSD climbs and USDJPY falls in small steps, and each account crosses its
 *     stop-out level at its own price: delay from the crossing tick to that account's stop-out close.
 *  3. A steady price ramp that crosses 1,000 take-profits over 20 s, then a burst of ticks that
 *     crosses 500 more at once: tick-to-committed and tick-to-push latency, closes per second.
 *  4. On PostgreSQL, the database's own limit for the burst's work: the same number of closes as
 *     bare transactions (BEGIN, a guarded UPDATE of an order row, INSERT of its ledger entries,
 *     COMMIT) over as many connections as the engine uses; the burst's closes/s as a share of it.
 *  1b. The dealer's desk watched (its figures pushed twice a second) against unwatched: the share of
 *     tick throughput the desk costs.
 * Targets (exit code 1 when one is missed): ramp tick-to-push p99 under 20 ms, stop-out delay p99
 * under 50 ms, burst at 80% or more of the database's limit, the desk under 5% of tick throughput.
 * PGlite in memory by default; BENCH_DATABASE_URL=postgres://... runs on a fresh PostgreSQL database.
 * BENCH_POSITIONS, BENCH_BAND_POSITIONS, BENCH_BURST_POSITIONS, BENCH_TICKS, BENCH_RAMP_TICKS_PER_S, BENCH_RAMP_SECONDS,
 * BENCH_STOP_OUT_ACCOUNTS (per kind) tune it;
 * BENCH_VERBOSE=1 prints the engine's queue every second of the ramp.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { D, type Dec, dec, fixed, moneyStr } from '@tp/contract/decimal';
import { marginOf } from '@tp/contract/formulas';
import { eq, sql } from 'drizzle-orm';
import { type App, buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { auditLedger } from '../apps/server/src/modules/ledger/ledger-service.ts';
import type { SymbolInfo, Tick } from '../apps/server/src/modules/market/types.ts';
import { openDatabase } from '../apps/server/src/platform/db/client.ts';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  orders,
  symbols as symbolsTable,
  users,
} from '../apps/server/src/platform/db/schema.ts';
import { createScratchDatabase } from '../apps/server/test/scratch-database.ts';
import { BusChannels } from '../apps/server/src/platform/bus-channels.ts';
import { loopDelayMonitor } from './loop-delay.ts';

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 100_000);
const PENDINGS = POSITIONS / 10;
const PER_USER = 10;
const USERS = POSITIONS / PER_USER;
const TICKS = Number(process.env.BENCH_TICKS ?? 100_000);
const BAND = Number(process.env.BENCH_BAND_POSITIONS ?? 1_000);
const BURST = Number(process.env.BENCH_BURST_POSITIONS ?? 500);
const RAMP_RATE = Number(process.env.BENCH_RAMP_TICKS_PER_S ?? 300);
const RAMP_SECONDS = Number(process.env.BENCH_RAMP_SECONDS ?? 20);
const STOP_OUT_ACCOUNTS = Number(process.env.BENCH_STOP_OUT_ACCOUNTS ?? 100);

const RAMP_P99_TARGET_MS = 20;
const STOP_OUT_P99_TARGET_MS = 50;
/** Issue 37: the burst at 80% or more of what the database alone does with the same work (it was 50%). */
const BURST_SHARE_TARGET = 0.8;
const DESK_SHARE_TARGET = 0.05;
/** How long each half of the desk's comparison delivers ticks (three rounds of each). */
const DESK_MS = Number(process.env.BENCH_DESK_MS ?? 4_000);

const pct = (values: number[], p: number) => values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;
const ms = (v: number) => `${v.toFixed(2)} ms`;
const log = (line: string) => process.stdout.write(`${line}\n`);

const freshPostgres = (base: string) => createScratchDatabase(base, 'bench_engine');

async function main() {
  const pgBase = process.env.BENCH_DATABASE_URL;
  const fresh = pgBase ? await freshPostgres(pgBase) : null;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(os.tmpdir(), `bench-engine-${randomBytes(4).toString('hex')}`),
    MARKET_ALWAYS_OPEN: '1',
    HISTORY_BARS: '0',
    ADMIN_PASSWORD: 'bench-password-1',
    ...(fresh ? { DATABASE_URL: fresh.url, DATABASE_POOL_SIZE: '20' } : {}),
  });
  // PGlite in memory, unless PostgreSQL is asked for.
  const server = await buildApp({ config, logger: pino({ level: 'warn' }), ...(fresh ? {} : { database: await openDatabase({}) }) });
  const { ctx } = server;
  const market = ctx.services.market;
  const engine = ctx.services.trading.engine;
  const symbols = market
    .symbols()
    .filter((s) => s.visible && s.tradable && s.leverages.length)
    .slice(0, 30);
  log(`database: ${ctx.dbKind}; ${symbols.length} symbols; ${POSITIONS} positions, ${PENDINGS} pending orders, ${USERS} accounts`);

  // Every symbol live (a first tick at its seeded price) and fresh for the whole run: a symbol with no
  // live tick is not tradable, and stop-out skips its positions.
  await ctx.db.update(symbolsTable).set({ maxQuoteAgeSec: 3600 });
  await market.reloadSymbols();
  for (const s of market.symbols()) {
    const m = market.quote(s.id)!.mid;
    market.publishTick({ symbolId: s.id, bid: m, ask: m, time: Date.now() });
  }
  const mid = new Map(symbols.map((s) => [s.id, dec(market.quote(s.id)!.mid)]));
  const t0 = performance.now();
  await seedBook(ctx, symbols, mid);
  const watched = await seedStopOuts(ctx);
  // A book of this size is a steady state, not a bulk load in progress: vacuum, statistics and a
  // checkpoint now, so background work right after the load does not land inside the measurement.
  await ctx.db.execute(sql`vacuum analyze`);
  await ctx.db.execute(sql`checkpoint`);
  log(`setup: inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s (then vacuum analyze and checkpoint)`);

  const t1 = performance.now();
  await engine.start();
  const rss = process.memoryUsage().rss / 2 ** 20;
  log(
    `engine start (books rebuilt from the database): ${((performance.now() - t1) / 1000).toFixed(2)} s, ${JSON.stringify(engine.stats())}, RSS ${rss.toFixed(0)} MiB`,
  );

  // 2 runs first: the quiet phase below moves EURGBP, whose loss decides where those accounts cross.
  const stopOutP99 = await conversionStopOuts(server, watched);

  // 1. Nothing triggers: mids wander within 0.09% of where they started (every level is further away).
  const ticks: Tick[] = [];
  for (let i = 0; i < TICKS; i++) {
    const s = symbols[i % symbols.length]!;
    const m = mid.get(s.id)!.mul(1 + (((i * 7919) % 1000) / 1000 - 0.5) * 0.0018);
    const half = s.spread.div(2);
    ticks.push({
      symbolId: s.id,
      code: s.code,
      bid: fixed(m.minus(half), s.pricePrecision),
      ask: fixed(m.plus(half), s.pricePrecision),
      mid: fixed(m, s.pricePrecision),
      time: Date.now(),
    });
  }
  const before = engine.stats();
  let start = performance.now();
  for (const tick of ticks) engine.onTick(tick);
  const direct = TICKS / ((performance.now() - start) / 1000);
  start = performance.now();
  // The market adds the spread to the source price: the same quotes as the ticks above.
  for (const tick of ticks) market.publishTick({ symbolId: tick.symbolId, bid: tick.mid, ask: tick.mid, time: Date.now() });
  const published = TICKS / ((performance.now() - start) / 1000);
  await engine.idle();
  const after = engine.stats();
  if (after.positions !== before.positions || after.pendings !== before.pendings) throw new Error('something triggered in the quiet phase');
  log(
    `nothing triggers: ${Math.round(direct).toLocaleString('en')} ticks/s into the engine; ${Math.round(published).toLocaleString('en')} ticks/s through market.publishTick (quotes, candles, pushes included)`,
  );

  // 1b. The dealer's desk's cost to the tick path (a risk member watching: the figures of every open position twice a second).
  const deskShare = await deskCost(server, ticks);

  const { rampP99, burst } = await triggers(server, symbols, mid);
  const report = await auditLedger(ctx.db);
  log(`ledger audit: ${report.ok ? 'OK' : report.problems.join('; ')} (${report.transactions} transactions)`);
  const connections = ctx.services.trading.engine.concurrency;
  await server.close();
  const limit = fresh ? await databaseLimit(fresh.url, burst.closes, connections) : null;
  await fresh?.drop();

  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  log(`\nmachine: ${os.cpus().length} cores, load average ${load}`);
  const missed: string[] = [];
  const check = (ok: boolean, line: string) => {
    log(`  ${ok ? 'ok    ' : 'MISSED'} ${line}`);
    if (!ok) missed.push(line);
  };
  check(rampP99 < RAMP_P99_TARGET_MS, `ramp tick-to-push p99 ${ms(rampP99)} (target < ${RAMP_P99_TARGET_MS} ms)`);
  check(
    deskShare < DESK_SHARE_TARGET,
    `the desk's pushes cost ${(deskShare * 100).toFixed(1)}% of the tick throughput (target < ${DESK_SHARE_TARGET * 100}%)`,
  );
  check(stopOutP99 < STOP_OUT_P99_TARGET_MS, `stop-out delay p99 ${ms(stopOutP99)} (target < ${STOP_OUT_P99_TARGET_MS} ms)`);
  if (limit) {
    const share = burst.perSecond / limit.perSecond;
    log(
      `  database limit (${burst.closes} bare close transactions over ${connections} connections): ${limit.perSecond.toFixed(0)}/s, p99 ${ms(limit.p99)}`,
    );
    check(
      share >= BURST_SHARE_TARGET,
      `burst ${burst.perSecond.toFixed(0)} closes/s = ${(share * 100).toFixed(0)}% of the database's limit (target >= ${BURST_SHARE_TARGET * 100}%)`,
    );
  } else log('  burst share of the database limit: PostgreSQL only (BENCH_DATABASE_URL)');
  if (!report.ok) missed.push('ledger audit');
  if (missed.length) process.exitCode = 1;
}

/**
 * The dealer's desk's cost: the quiet phase's ticks delivered in slices of 200 with a turn of the event
 * loop between (as a feed's messages arrive), for DESK_MS with nobody watching the desk, then as long
 * with a risk member subscribed (the desk computes and pushes every open position's figures twice a
 * second, on the same thread), three rounds alternating. Answers the share of tick throughput lost.
 */
async function deskCost(server: App, ticks: Tick[]): Promise<number> {
  const engine = server.ctx.services.trading.engine;
  const SLICE = 200;
  const deliver = async (ms: number) => {
    let i = 0;
    let n = 0;
    const start = performance.now();
    const end = start + ms;
    while (performance.now() < end) {
      for (let k = 0; k < SLICE; k++) {
        engine.onTick(ticks[i]!);
        i = (i + 1) % ticks.length;
      }
      n += SLICE;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await engine.idle();
    return n / ((performance.now() - start) / 1000);
  };
  let pushes = 0;
  const stop = server.ctx.bus.subscribe(BusChannels.staffDesk, () => pushes++);
  const without: number[] = [];
  const withDesk: number[] = [];
  for (let round = 0; round < 3; round++) {
    without.push(await deliver(DESK_MS));
    // A subscribed desk socket says it is there every second.
    server.ctx.bus.publish(BusChannels.deskWanted, {});
    const wanted = setInterval(() => server.ctx.bus.publish(BusChannels.deskWanted, {}), 1000);
    withDesk.push(await deliver(DESK_MS));
    clearInterval(wanted);
    // The desk stops pushing a few seconds after the last word.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
  }
  stop();
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const share = 1 - median(withDesk) / median(without);
  log(
    `the desk: ${pushes} pushes in ${((3 * DESK_MS) / 1000).toFixed(0)} s watched; ticks/s (median of 3) ${Math.round(median(without)).toLocaleString('en')} unwatched, ${Math.round(median(withDesk)).toLocaleString('en')} watched: ${(share * 100).toFixed(1)}% of the tick throughput`,
  );
  return share;
}

/**
 * The database's own limit for the burst's work, measured with no application in between: per
 * close one transaction (BEGIN; guarded UPDATE of an open order row; INSERT of its four ledger
 * entries; COMMIT) on copies of the orders and ledger_entries tables, `connections` at a time.
 */
async function databaseLimit(url: string, closes: number, connections: number) {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  // The scratch database is dropped (with force) right after: a client still closing must not crash the run.
  pool.on('error', () => undefined);
  await pool.query('create table limit_orders (like orders including all)');
  await pool.query('create table limit_entries (like ledger_entries including all)');
  await pool.query(`insert into limit_orders select * from orders where status = 1 order by id limit ${closes}`);
  await pool.query('vacuum analyze limit_orders');
  const ids = (await pool.query<{ id: string; level: string }>('select id, target_profit_price as level from limit_orders')).rows;
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (next < ids.length) {
        const { id, level } = ids[next++]!;
        const t = performance.now();
        await client.query('begin');
        const updated = await client.query(
          `update limit_orders set update_price = $1, fact_profits = $2, closed_type = 1, status = 3, completed_at = $3
           where id = $4 and status = 1 and target_profit_price = $5 returning *`,
          [level, '12.34', new Date().toISOString(), id, level],
        );
        if (updated.rowCount !== 1) throw new Error(`limit: order ${id} not updated`);
        await client.query(
          `insert into limit_entries (tx_id, account_id, amount, type, memo) values
           ($1, 1, '-10', 'margin_release', $2), ($1, 2, '10', 'margin_release', $2), ($1, 2, '12.34', 'profit', $2), ($1, 3, '-12.34', 'profit', $2)`,
          [id, `#${id}`],
        );
        await client.query('commit');
        times.push(performance.now() - t);
      }
    } finally {
      client.release();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  times.sort((a, b) => a - b);
  return { perSecond: times.length / seconds, p99: pct(times, 99) };
}

/** BENCH_PROFILE_RAMP / BENCH_PROFILE_BURST / BENCH_PROFILE_STOP_OUT=file.cpuprofile: a CPU profile of this process during that phase only; the returned function writes it. */
async function startProfile(file: string | undefined): Promise<(() => Promise<void>) | null> {
  if (!file) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** Records, per closed order, when it committed and when FOREX_CLOSED went out. */
function latencyProbe(server: App) {
  const { ctx } = server;
  const engine = ctx.services.trading.engine;
  const committed = new Map<number, number>();
  const pushed = new Map<number, number>();
  const originalApply = engine.apply;
  (engine as { apply: typeof engine.apply }).apply = (changes) => {
    const now = performance.now();
    for (const c of changes) if (c.type === 'closed') for (const o of c.orders) committed.set(o.id, now);
    originalApply(changes);
  };
  const publish = ctx.bus.publish.bind(ctx.bus);
  ctx.bus.publish = (channel, message) => {
    const m = message as { type?: string; id?: number[] };
    if (m.type === 'FOREX_CLOSED') for (const id of m.id!) pushed.set(id, performance.now());
    publish(channel, message);
  };
  let toCommit: number[] = [];
  let toPush: number[] = [];
  engine.onJobDone = (job) => {
    if (job.kind !== 'close') return;
    toCommit.push(committed.get(job.orderId)! - job.triggeredAt);
    toPush.push(pushed.get(job.orderId)! - job.triggeredAt);
  };
  return {
    closed: () => toPush.length,
    report(title: string, seconds: number) {
      toCommit.sort((a, b) => a - b);
      toPush.sort((a, b) => a - b);
      const figures = { closes: toPush.length, perSecond: toPush.length / seconds, p99: pct(toPush, 99) };
      log(`${title}: ${toPush.length} take-profits closed in ${seconds.toFixed(1)} s (${(toPush.length / seconds).toFixed(0)}/s)`);
      log(`  tick-to-committed p50 ${ms(pct(toCommit, 50))}, p99 ${ms(pct(toCommit, 99))}, max ${ms(toCommit.at(-1) ?? NaN)}`);
      log(`  tick-to-push      p50 ${ms(pct(toPush, 50))}, p99 ${ms(pct(toPush, 99))}, max ${ms(toPush.at(-1) ?? NaN)}`);
      toCommit = [];
      toPush = [];
      return figures;
    },
  };
}

/** A source tick at mid `m`; the market quotes it with the symbol's spread. */
const tickAt = (server: App, s: SymbolInfo, m: Dec) => {
  const price = fixed(m, s.pricePrecision);
  server.ctx.services.market.publishTick({ symbolId: s.id, bid: price, ask: price, time: Date.now() });
};

/**
 * 2. Mids climb 1.2% in small steps at a steady tick rate, crossing the band of take-profits;
 * 3. then one tick per symbol jumps past the burst take-profits, all crossed at once.
 */
async function triggers(server: App, symbols: SymbolInfo[], mid: Map<number, Dec>) {
  const engine = server.ctx.services.trading.engine;
  const probe = latencyProbe(server);
  const loop = loopDelayMonitor(1);
  loop.enable();
  const gcPauses: number[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const profiler = await startProfile(process.env.BENCH_PROFILE_RAMP);
  const steps = RAMP_RATE * RAMP_SECONDS;
  const perSymbol = Math.ceil(steps / symbols.length);
  let started = performance.now();
  const monitor = process.env.BENCH_VERBOSE
    ? setInterval(
        () => log(`  t=${((performance.now() - started) / 1000).toFixed(1)} s closed=${probe.closed()} ${JSON.stringify(engine.stats())}`),
        1000,
      )
    : undefined;
  for (let i = 0; i < steps; i++) {
    const s = symbols[i % symbols.length]!;
    tickAt(server, s, mid.get(s.id)!.mul(1 + (0.012 * Math.floor(i / symbols.length)) / perSymbol));
    const wait = started + ((i + 1) * 1000) / RAMP_RATE - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    else if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  await engine.idle();
  const ramp = probe.report(`steady ramp, ${steps.toLocaleString('en')} ticks at ${RAMP_RATE}/s`, (performance.now() - started) / 1000);
  loop.disable();
  gcObserver.disconnect();
  await profiler?.();
  gcPauses.sort((a, b) => a - b);
  const late = loop.read();
  log(
    `  event loop delay (beyond the 1 ms sampling period) p50 ${late.p50.toFixed(1)} ms, p99 ${late.p99.toFixed(1)} ms, max ${late.max.toFixed(1)} ms; ` +
      `${gcPauses.length} GC pauses, longest ${(gcPauses.at(-1) ?? 0).toFixed(1)} ms, ${gcPauses.filter((d) => d > 5).length} over 5 ms`,
  );
  const burstProfiler = await startProfile(process.env.BENCH_PROFILE_BURST);
  started = performance.now();
  for (const s of symbols) tickAt(server, s, mid.get(s.id)!.mul(1.016));
  await engine.idle();
  const burstSeconds = (performance.now() - started) / 1000;
  // Written after the burst's time is taken, as the ramp's is: writing the profile is not the burst's work.
  await burstProfiler?.();
  clearInterval(monitor);
  const burst = probe.report(`burst, ${symbols.length} ticks crossing every burst take-profit at once`, burstSeconds);
  return { rampP99: ramp.p99, burst };
}

/** An account of phase 2: its one position, and the price of the moving symbol at which it reaches the stop-out level. */
interface Watched {
  orderId: number;
  /** GBPUSD or USDJPY. */
  driver: number;
  crossing: Dec;
  rising: boolean;
}

const STOP_OUT_KINDS = [
  // Profit in GBP, times the GBPUSD mid: a long EURGBP with a loss loses more as GBPUSD climbs.
  { code: 'EURGBP', driver: 'GBPUSD', rising: true },
  // Profit in JPY, over the USDJPY mid: a long JPN225 with a loss loses more as USDJPY falls.
  { code: 'JPN225', driver: 'USDJPY', rising: false },
  // USDJPY converts through itself.
  { code: 'USDJPY', driver: 'USDJPY', rising: false },
];

/**
 * Accounts of one position each, opened 0.2% above the market (a loss), funded so that the
 * margin level reaches the stop-out level (50%) after a move of the driver of 0.5% to 4%.
 */
async function seedStopOuts(ctx: AppContext): Promise<Watched[]> {
  const market = ctx.services.market;
  const level = ctx.services.trading.settings.stopOutLevel.div(100);
  const rows: { order: typeof orders.$inferInsert; deposit: Dec; watched: Omit<Watched, 'orderId'> }[] = [];
  for (const kind of STOP_OUT_KINDS) {
    const s = market.symbolByCode(kind.code)!;
    const driver = market.symbolByCode(kind.driver)!;
    const q = market.quote(s.id)!;
    const g0 = dec(market.quote(driver.id)!.mid);
    const lev = s.leverages.at(-1)!.value;
    const lots = s.minLots.mul(10);
    const units = lots.mul(s.contractSize);
    const open = dec(q.ask).mul(1.002).toDecimalPlaces(s.pricePrecision, D.ROUND_HALF_EVEN);
    const margin = marginOf(s, lots, open, lev, market.quoteToUsd(s.id));
    for (let i = 0; i < STOP_OUT_ACCOUNTS; i++) {
      const move = 0.005 + (0.035 * i) / STOP_OUT_ACCOUNTS;
      const crossing = g0.mul(kind.rising ? 1 + move : 1 - move);
      // Equity at the crossing = deposit + profit there (in USD) = stop-out level x margin.
      const half = dec(q.ask).minus(q.bid).div(2);
      const bidThere = s.id === driver.id ? crossing.minus(half) : dec(q.bid);
      const rate = s.id === driver.id || driver.code === 'USDJPY' ? dec(1).div(crossing) : crossing;
      const profitThere = bidThere.minus(open).mul(units).mul(rate);
      const deposit = level.mul(margin).minus(profitThere).toDecimalPlaces(6, D.ROUND_UP);
      rows.push({
        deposit,
        watched: { driver: driver.id, crossing, rising: kind.rising },
        order: {
          userId: 0,
          symbolId: s.id,
          isDemo: true,
          orderType: 1,
          status: 1,
          quantity: lots.toString(),
          leverage: lev,
          contractSize: s.contractSize.toString(),
          price: open.toString(),
          closePrice: open.toString(),
          margin: moneyStr(margin),
          fee: '0',
          openedAt: new Date(),
        },
      });
    }
  }
  const userRows = await ctx.db
    .insert(users)
    .values(rows.map((_, i) => ({ uid: `S${i}`, inviteCode: `STOPOUT${i}`, isDemo: true, demoId: `bench_stop_out_${i}`, groupId: 1 })))
    .returning({ id: users.id });
  const orderRows = await ctx.db
    .insert(orders)
    .values(rows.map((r, i) => ({ ...r.order, userId: userRows[i]!.id })))
    .returning({ id: orders.id });
  await fundAccounts(
    ctx,
    userRows.map((u, i) => ({ userId: u.id, deposit: rows[i]!.deposit, locked: dec(rows[i]!.order.margin!) })),
  );
  return rows.map((r, i) => ({ ...r.watched, orderId: orderRows[i]!.id }));
}

/**
 * 2. GBPUSD climbs and USDJPY falls 5% in steps of 0.02%, alternately, 200 ticks a second. The
 * crossing tick of an account is the first at or past its crossing price (or the tick at which the
 * engine saw it, if that came first by rounding); its delay ends when its stop-out close commits.
 */
async function conversionStopOuts(server: App, watched: Watched[]): Promise<number> {
  const { ctx } = server;
  const market = ctx.services.market;
  const engine = ctx.services.trading.engine;
  const committed = new Map<number, { at: number; type: number | null }>();
  const originalApply = engine.apply;
  (engine as { apply: typeof engine.apply }).apply = (changes) => {
    const now = performance.now();
    for (const c of changes) if (c.type === 'closed') for (const o of c.orders) committed.set(o.id, { at: now, type: o.closedType });
    originalApply(changes);
  };
  const seen = new Map<number, number>();
  engine.onJobDone = (job) => {
    if (job.kind === 'risk' && !seen.has(job.userId)) seen.set(job.userId, job.triggeredAt);
  };
  // Where the delay goes: waiting in the engine's queue, then the stop-out's own transaction.
  const executor = engine['executor'];
  const originalRun = executor.run.bind(executor);
  const queued: number[] = [];
  const inTransaction: number[] = [];
  executor.run = async (job, actedAt) => {
    const start = performance.now();
    let acted = false;
    await originalRun(job, (rate) => {
      acted = true;
      actedAt?.(rate);
    });
    if (acted) {
      queued.push(start - job.triggeredAt);
      inTransaction.push(performance.now() - start);
    }
  };
  const ownerOf = new Map<number, number>();
  for (const o of await ctx.db
    .select({ id: orders.id, userId: orders.userId })
    .from(orders)
    .where(sql`${orders.id} >= ${watched[0]!.orderId}`))
    ownerOf.set(o.id, o.userId);
  const crossedAt = new Map<number, number>();
  const drivers = [...new Set(watched.map((w) => w.driver))].map((id) => ({
    s: market.symbol(id)!,
    start: dec(market.quote(id)!.mid),
    rising: watched.find((w) => w.driver === id)!.rising,
  }));
  // 4.6%: past every crossing (at most 4%), short of the 5% at which coupled drivers look again anyway.
  const STEPS = 230;
  const RATE = 200;
  const profiler = await startProfile(process.env.BENCH_PROFILE_STOP_OUT);
  const started = performance.now();
  let n = 0;
  for (let step = 1; step <= STEPS; step++) {
    for (const d of drivers) {
      const m = d.start.mul(d.rising ? 1 + 0.0002 * step : 1 - 0.0002 * step);
      tickAt(server, d.s, m);
      const now = performance.now();
      for (const w of watched) {
        if (w.driver !== d.s.id || crossedAt.has(w.orderId)) continue;
        if (w.rising ? m.gte(w.crossing) : m.lte(w.crossing)) crossedAt.set(w.orderId, now);
      }
      const wait = started + (++n * 1000) / RATE - performance.now();
      // Behind schedule, still let the committed jobs through between ticks, as a feed would.
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      else await new Promise((r) => setImmediate(r));
    }
  }
  await engine.idle();
  await profiler?.();
  engine.onJobDone = null;
  executor.run = originalRun;
  (engine as { apply: typeof engine.apply }).apply = originalApply;
  const delays: number[] = [];
  let wrongType = 0;
  for (const w of watched) {
    const done = committed.get(w.orderId);
    const crossed = crossedAt.get(w.orderId);
    if (!done || crossed === undefined) continue;
    if (done.type !== 2) wrongType++;
    const noticed = seen.get(ownerOf.get(w.orderId)!);
    delays.push(done.at - Math.min(crossed, noticed ?? crossed));
  }
  delays.sort((a, b) => a - b);
  log(
    `stop-out after conversion moves (GBPUSD for EURGBP, USDJPY for JPN225 and USDJPY), ${n} ticks at ${RATE}/s: ${delays.length} of ${watched.length} accounts stopped out` +
      `${wrongType ? ` (${wrongType} not as stop-outs)` : ''}`,
  );
  log(`  crossing-tick-to-stop-out-close p50 ${ms(pct(delays, 50))}, p99 ${ms(pct(delays, 99))}, max ${ms(delays.at(-1) ?? NaN)}`);
  queued.sort((a, b) => a - b);
  inTransaction.sort((a, b) => a - b);
  log(
    `  of which queued behind other jobs p50 ${ms(pct(queued, 50))}, p99 ${ms(pct(queued, 99))}; ` +
      `stop-out transaction (lock, read, closes, postings, commit) p50 ${ms(pct(inTransaction, 50))}, p99 ${ms(pct(inTransaction, 99))}`,
  );
  // An account not stopped out counts as missed.
  return delays.length === watched.length && !wrongType ? pct(delays, 99) : Infinity;
}

/** Ledger rows of accounts funded by the house's demo funding: cash = deposit - locked, locked = the margin of their positions. */
async function fundAccounts(ctx: AppContext, accounts: { userId: number; deposit: Dec; locked: Dec }[]) {
  const db = ctx.db;
  const funding = (await db.select().from(ledgerAccounts)).find((a) => a.kind === 'demo_funding' && a.isDemo && a.userId === null)!;
  const rows = await db
    .insert(ledgerAccounts)
    .values(
      accounts.flatMap((a) => [
        { userId: a.userId, kind: 'cash', isDemo: true, balance: moneyStr(a.deposit.minus(a.locked)) },
        { userId: a.userId, kind: 'locked', isDemo: true, balance: moneyStr(a.locked) },
      ]),
    )
    .returning();
  const txs = await db
    .insert(ledgerTransactions)
    .values(accounts.map((a) => ({ kind: 'demo_funding', isDemo: true, refType: 'user', refId: String(a.userId) })))
    .returning({ id: ledgerTransactions.id, refId: ledgerTransactions.refId });
  const total = accounts.reduce((sum, a) => sum.plus(a.deposit), dec(0));
  await db.insert(ledgerEntries).values(
    txs.flatMap((tx, i) => {
      const userId = Number(tx.refId);
      const cash = rows.find((r) => r.userId === userId && r.kind === 'cash')!;
      const lock = rows.find((r) => r.userId === userId && r.kind === 'locked')!;
      return [
        { txId: tx.id, accountId: cash.id, amount: cash.balance, type: 'demo_funding' },
        { txId: tx.id, accountId: lock.id, amount: lock.balance, type: 'margin_lock' },
        { txId: tx.id, accountId: funding.id, amount: moneyStr(accounts[i]!.deposit.neg()), type: 'demo_funding' },
      ];
    }),
  );
  await db
    .update(ledgerAccounts)
    .set({ balance: sql`${ledgerAccounts.balance} - ${moneyStr(total)}::numeric` })
    .where(eq(ledgerAccounts.id, funding.id));
}

/** Inserts accounts, ledger rows and orders in bulk, consistent with the ledger (the audit passes). */
async function seedBook(ctx: AppContext, symbols: SymbolInfo[], mid: Map<number, Dec>) {
  const db = ctx.db;
  const deposit = dec(1_000_000);
  const [house] = await db
    .insert(ledgerAccounts)
    .values({ userId: null, kind: 'demo_funding', isDemo: true })
    .onConflictDoNothing()
    .returning();
  const funding =
    house?.id ?? (await db.select().from(ledgerAccounts)).find((a) => a.kind === 'demo_funding' && a.isDemo && a.userId === null)!.id;
  const price = (s: SymbolInfo, factor: number) => fixed(mid.get(s.id)!.mul(factor), s.pricePrecision);
  let band = 0;
  let burst = 0;
  for (let first = 0; first < USERS; first += 500) {
    const count = Math.min(500, USERS - first);
    const userRows = await db
      .insert(users)
      .values(
        Array.from({ length: count }, (_, i) => ({
          uid: `B${first + i}`,
          inviteCode: `BENCH${first + i}`,
          isDemo: true,
          demoId: `bench_${first + i}`,
          // The demo group the migration seeds.
          groupId: 1,
        })),
      )
      .returning({ id: users.id });
    const orderRows: (typeof orders.$inferInsert)[] = [];
    const locked = new Map<number, Dec>();
    for (const [u, { id: userId }] of userRows.entries()) {
      let sum = new D(0);
      for (let k = 0; k < PER_USER + 1; k++) {
        const s = symbols[(first + u + k * 7) % symbols.length]!;
        const lev = s.leverages.at(-1)!.value;
        const pending = k === PER_USER;
        const inBand = !pending && k === 0 && band < BAND;
        const inBurst = !pending && k === 1 && burst < BURST;
        const buy = inBand || inBurst || pending || (u + k) % 2 === 0;
        const open = pending ? dec(price(s, 0.7)) : dec(market(s, mid, buy ? 'ask' : 'bid'));
        const margin = marginOf(s, s.minLots, open, lev, ctx.services.market.quoteToUsd(s.id));
        sum = sum.plus(margin);
        let tp = price(s, buy ? 1.3 : 0.7);
        // Band positions: buys whose take-profit sits 0.1% to 1.1% above, crossed by the ramp;
        // burst positions: buys whose take-profit sits 1.5% above, past the end of the ramp.
        if (inBand) tp = price(s, 1.001 + (0.01 * (band++ % 100)) / 100);
        else if (inBurst) {
          tp = price(s, 1.015);
          burst++;
        }
        orderRows.push({
          userId,
          symbolId: s.id,
          isDemo: true,
          orderType: buy ? 1 : 2,
          status: pending ? 0 : 1,
          quantity: s.minLots.toString(),
          leverage: lev,
          contractSize: s.contractSize.toString(),
          originPrice: pending ? open.toString() : null,
          pendingKind: pending ? 'limit' : null,
          price: pending ? null : open.toString(),
          closePrice: pending ? null : open.toString(),
          takeProfit: pending ? null : tp,
          stopLoss: pending ? null : price(s, buy ? 0.7 : 1.3),
          margin: moneyStr(margin),
          fee: '0',
          openedAt: pending ? null : new Date(),
        });
      }
      locked.set(userId, sum);
    }
    for (let i = 0; i < orderRows.length; i += 2_000) await db.insert(orders).values(orderRows.slice(i, i + 2_000));
    const accounts = await db
      .insert(ledgerAccounts)
      .values(
        userRows.flatMap(({ id }) => [
          { userId: id, kind: 'cash', isDemo: true, balance: moneyStr(deposit.minus(locked.get(id)!)) },
          { userId: id, kind: 'locked', isDemo: true, balance: moneyStr(locked.get(id)!) },
        ]),
      )
      .returning();
    const txs = await db
      .insert(ledgerTransactions)
      .values(userRows.map(({ id }) => ({ kind: 'demo_funding', isDemo: true, refType: 'user', refId: String(id) })))
      .returning({ id: ledgerTransactions.id, refId: ledgerTransactions.refId });
    const entries = txs.flatMap((tx) => {
      const userId = Number(tx.refId);
      const [cash, lock] = accounts.filter((a) => a.userId === userId).sort((a) => (a.kind === 'cash' ? -1 : 1));
      return [
        { txId: tx.id, accountId: cash!.id, amount: cash!.balance, type: 'demo_funding' },
        { txId: tx.id, accountId: lock!.id, amount: lock!.balance, type: 'margin_lock' },
        { txId: tx.id, accountId: funding, amount: moneyStr(deposit.neg()), type: 'demo_funding' },
      ];
    });
    await db.insert(ledgerEntries).values(entries);
  }
  await db
    .update(ledgerAccounts)
    .set({ balance: moneyStr(deposit.mul(USERS).neg()) })
    .where(eq(ledgerAccounts.id, funding));
}

function market(s: SymbolInfo, mid: Map<number, Dec>, side: 'bid' | 'ask'): string {
  const half = s.spread.div(2);
  const m = mid.get(s.id)!;
  return fixed(side === 'bid' ? m.minus(half) : m.plus(half), s.pricePrecision);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:engine failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
