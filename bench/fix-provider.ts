/**
 * The provider side of `npm run bench:fix`, in its own process (so the server's core is measured
 * alone): a FIX simulator on the port of the session in BENCH_FIX_CONFIG. The parent sends
 * {rate, seconds} (rate 0: as fast as the simulator can send) and gets {sent} back when done.
 * Quotes go round the session's symbols, each near the symbol's seed price, stamped with the time
 * they are sent (MDEntryTime, and SendingTime on the message).
 */
import pino from 'pino';
import { readFixConfig } from '../apps/server/src/fix-config.ts';
import { FixSimulator } from '../apps/server/src/modules/market/sources/fix-simulator.ts';
import { seedSymbols } from '../apps/server/src/platform/db/seed-data.ts';

const session = readFixConfig(process.env.BENCH_FIX_CONFIG!).sessions[0]!;
const symbols = Object.entries(session.symbols).map(([code, theirs]) => {
  const s = seedSymbols.find((x) => x.code === code)!;
  return { theirs, base: Number(s.basePrice), precision: s.pricePrecision ?? 2 };
});
const sim = new FixSimulator(session, pino({ level: 'warn' }));
let n = 0;

function quote(): void {
  const s = symbols[n % symbols.length]!;
  // A small wave around the seed price: never far enough to be held by the deviation filter.
  const px = (s.base * (1 + Math.sin(n / 97) * 0.0005)).toFixed(s.precision);
  n++;
  sim.push({ symbol: s.theirs, bid: px, ask: px, time: Date.now() });
}

async function run(rate: number, seconds: number): Promise<number> {
  const start = n;
  const began = Date.now();
  const end = began + seconds * 1000;
  while (Date.now() < end) {
    if (rate === 0) {
      for (let i = 0; i < 200; i++) quote();
      await new Promise((r) => setImmediate(r));
    } else {
      const due = Math.floor(((Date.now() - began) / 1000) * rate);
      while (n - start < due) quote();
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  return n - start;
}

await sim.start();
process.send!({ event: 'listening' });
process.on('message', (msg: { rate: number; seconds: number } | 'stop') => {
  if (msg === 'stop') {
    sim.stop();
    process.exit(0);
  }
  void run(msg.rate, msg.seconds).then((sent) => process.send!({ event: 'done', sent }));
});
