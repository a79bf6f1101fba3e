/**
 * `npm run fix:simulator [-- file.json]`: a local FIX 4.4 liquidity provider for PRICE_SOURCE=fix.
 * It accepts the first session of FIX_CONFIG (or of the file given) on that session's port and
 * quotes its symbols with the built-in simulator's random walk (PRICE_SEED), at each symbol's own
 * tick rate. Exits 2 when the file is invalid. docs/fix.md.
 */
import pino from 'pino';
import { readFixConfig } from '../fix-config.ts';
import { FixSimulator } from '../modules/market/sources/fix-simulator.ts';
import { RandomWalk } from '../modules/market/sources/random-walk.ts';
import { seedSymbols } from '../platform/db/seed-data.ts';

async function main(): Promise<number> {
  const file = process.argv[2] ?? process.env.FIX_CONFIG;
  if (!file) {
    process.stderr.write('Give the FIX_CONFIG file: npm run fix:simulator -- fix.json (or set FIX_CONFIG)\n');
    return 2;
  }
  let session;
  try {
    session = readFixConfig(file).sessions[0]!;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const seed = Number(process.env.PRICE_SEED ?? 42);
  const walks = Object.entries(session.symbols).flatMap(([code, theirs]) => {
    const s = seedSymbols.find((x) => x.code === code);
    if (!s) {
      log.warn({ code }, 'FIX simulator: not a symbol of the seed data, not quoted');
      return [];
    }
    const walk = new RandomWalk({
      seed,
      code,
      volatility: Number(s.volatility),
      basePrice: s.basePrice,
      pricePrecision: s.pricePrecision ?? 2,
    });
    return [{ theirs, walk, everyMs: 1000 / Number(s.ticksPerSecond ?? 1), nextAt: 0, lastAt: Date.now() }];
  });
  const now = Date.now();
  const sim = new FixSimulator(
    session,
    log,
    walks.map((w) => ({ symbol: w.theirs, bid: w.walk.priceText(), ask: w.walk.priceText(), time: now })),
  );
  await sim.start();
  log.info({ port: session.port, sender: session.targetCompId, target: session.senderCompId }, 'FIX simulator listening');
  const timer = setInterval(() => {
    const at = Date.now();
    for (const w of walks) {
      if (at < w.nextAt) continue;
      w.nextAt = at + w.everyMs;
      w.walk.step((at - w.lastAt) / 1000);
      w.lastAt = at;
      // The walk's price as bid and ask, as the built-in simulator hands it: the server adds the spread.
      sim.push({ symbol: w.theirs, bid: w.walk.priceText(), ask: w.walk.priceText(), time: at });
    }
  }, 20);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(timer);
  sim.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
