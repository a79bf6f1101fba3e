/**
 * `npm run fix:simulator [-- file.json]`: a local FIX 4.4 liquidity provider for PRICE_SOURCE=fix.
 * It plays the provider of every session of FIX_CONFIG (or of the file given), each on its session's
 * port, quoting its symbols with the built-in simulator's random walk (PRICE_SEED, plus the session's
 * index: two providers quote a little differently), at each symbol's own tick rate. It fills the
 * orders it receives at its quote; FIX_SIM_LATENCY_MS, FIX_SIM_PARTIAL (the share filled),
 * FIX_SIM_REJECT (a reject text) and FIX_SIM_SILENT=1 (no answer) change that. Exits 2 when
 * the file is invalid. docs/fix.md.
 */
import pino from 'pino';
import { readFixConfig } from '../fix-config.ts';
import { startWalkingProvider } from '../modules/market/sources/fix-walk.ts';

async function main(): Promise<number> {
  const file = process.argv[2] ?? process.env.FIX_CONFIG;
  if (!file) {
    process.stderr.write('Give the FIX_CONFIG file: npm run fix:simulator -- fix.json (or set FIX_CONFIG)\n');
    return 2;
  }
  let sessions;
  try {
    sessions = readFixConfig(file).sessions;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const seed = Number(process.env.PRICE_SEED ?? 42);
  const providers = await Promise.all(sessions.map((session, i) => startWalkingProvider(session, log, seed + i)));
  const env = process.env;
  for (const { sim } of providers) {
    sim.orders = {
      ...sim.orders,
      latencyMs: Number(env.FIX_SIM_LATENCY_MS ?? 0) || 0,
      partial: env.FIX_SIM_PARTIAL || null,
      reject: env.FIX_SIM_REJECT || null,
      silent: env.FIX_SIM_SILENT === '1',
    };
  }
  for (const session of sessions)
    log.info(
      { session: session.name, port: session.port, sender: session.targetCompId, target: session.senderCompId },
      'FIX simulator listening',
    );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const provider of providers) provider.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
