/**
 * Trader ranking (GET /api/follow/list) on 100,000 closed orders: time of the SQL aggregate
 * (cold, then repeated) and of answered requests once cached.
 *
 *   npx tsx bench/ranking.ts                       # in-memory PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/ranking.ts
 *
 * Options (env): ORDERS (default 100000), TRADERS (default 2000). Bounded: one pass, local only.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/platform/db/client.ts';
import { seedDatabase } from '../apps/server/src/platform/db/seed.ts';
import { rankingRows } from '../apps/server/src/modules/social/repository.ts';
import { SocialService } from '../apps/server/src/modules/social/service.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { createScratchDatabase } from '../apps/server/test/scratch-database.ts';

const ORDERS = Number(process.env.ORDERS ?? 100_000);
const TRADERS = Number(process.env.TRADERS ?? 2_000);
const base = process.env.BENCH_DATABASE_URL;

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!base) return { database: await openDatabase({}), drop: async () => undefined };
  const scratch = await createScratchDatabase(base, 'bench_rank');
  return { database: await openDatabase({ url: scratch.url, poolSize: 4 }), drop: scratch.drop };
}

const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;

const { database, drop } = await open();
try {
  const log = pino({ level: 'silent' });
  await seedDatabase(database.db, log, loadConfig({ NODE_ENV: 'test' }));
  let t0 = process.hrtime.bigint();
  await database.db.execute(sql`
    insert into users (uid, email, invite_code, ranking_opt_out, group_id)
    select 'b' || g, 'trader' || g || '@bench.example', 'BENCH' || g, g % 50 = 0, 2 from generate_series(1, ${TRADERS}) g`);
  // Orders spread over 60 days (about a third inside the 21-day window), random symbols, leverages and results.
  await database.db.execute(sql`
    insert into orders (user_id, symbol_id, is_demo, order_type, status, quantity, multiple, contract_size, price, update_price,
                        caution_money, trade_fee, fact_profits, closed_type, opened_at, completed_at)
    select u.id, s.id, false, 1 + (g % 2), 3, 0.1, (array[10, 20, 50, 100, 200])[1 + g % 5], 100000, 1, 1,
           round((50 + random() * 950)::numeric, 6), 0.5, round(((random() - 0.45) * 200)::numeric, 6), 1,
           now() - (g % 60) * interval '1 day' - interval '1 hour', now() - (g % 60) * interval '1 day' - (g % 1000) * interval '1 second'
    from generate_series(1, ${ORDERS}) g
    join lateral (select id from users where uid = 'b' || (1 + g % ${TRADERS})) u on true
    join lateral (select id from symbols order by id offset (g % 20) limit 1) s on true`);
  console.log(`inserted ${TRADERS} traders and ${ORDERS} closed orders in ${ms(t0).toFixed(0)} ms (${database.kind})`);

  const since = new Date(Date.now() - 21 * 86_400_000);
  let rows = 0;
  const timeQuery = async (label: string) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      t0 = process.hrtime.bigint();
      rows = (await rankingRows(database.db, { symbol: () => undefined }, since)).length;
      runs.push(ms(t0));
    }
    console.log(`ranking query ${label}: ${rows} ranked traders; runs ${runs.map((r) => r.toFixed(0)).join(', ')} ms`);
  };
  await timeQuery('without table statistics');
  await database.db.execute(sql`analyze orders, users`);
  await timeQuery('after analyze');

  // No market here: the ranking's symbol codes come out empty, which the timing does not care about.
  const social = new SocialService({ db: database.db, services: { market: { symbol: () => undefined } } } as unknown as AppContext);
  t0 = process.hrtime.bigint();
  await social.ranking({ page: 1, limit: 10 });
  const first = ms(t0);
  t0 = process.hrtime.bigint();
  const N = 10_000;
  for (let i = 0; i < N; i++) await social.ranking({ page: 1 + (i % 50), limit: 10 });
  console.log(
    `service: first page ${first.toFixed(1)} ms (computes and formats); cached pages ${((ms(t0) / N) * 1000).toFixed(1)} µs each`,
  );
} finally {
  await database.close();
  await drop();
}
