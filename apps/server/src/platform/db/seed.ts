import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from './client.ts';
import {
  areaCodes,
  bankWires,
  categories,
  company,
  depositNetworks,
  news,
  newsTexts,
  settings,
  symbolLeverages,
  symbols,
  withdrawCurrencies,
} from './schema.ts';
import {
  seedAreaCodes,
  seedBankWires,
  seedCategories,
  seedCompany,
  seedDepositNetworks,
  seedNews,
  seedNewsTexts,
  seedSettings,
  priceIntegrityDefaults,
  seedSymbols,
  seedWithdrawCurrencies,
} from './seed-data.ts';

/** The transaction lock seeding servers take turns on (an arbitrary constant, not the leader's or the migrators'). */
const SEED_LOCK_KEY = 7_320_514_613;

const isEmpty = async (db: Db, table: Parameters<Db['select']>[0] extends never ? never : any) => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
  return Number((row as { n: number }).n) === 0;
};

/**
 * Reference data a new broker needs, inserted at start. Idempotent: rows staff have changed or
 * added are kept; only what is missing is inserted.
 */
export async function seedDatabase(db: Db, log: Logger, config: Config): Promise<void> {
  await db.transaction(async (tx) => {
    // Servers started together on an empty database take turns: the second finds the rows the first
    // inserted instead of inserting the tables it saw empty a second time.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const initialSettings = { ...seedSettings, demo_initial_balance: config.DEMO_INITIAL_BALANCE };
    await tx
      .insert(settings)
      .values(Object.entries(initialSettings).map(([key, value]) => ({ key, value })))
      .onConflictDoNothing();
    await tx.insert(categories).values(seedCategories).onConflictDoNothing();
    const cats = await tx.select().from(categories);
    const catId = new Map(cats.map((c) => [c.key, c.id]));
    for (const { category, leverages, ...sym } of seedSymbols) {
      const [row] = await tx
        .insert(symbols)
        .values({ ...priceIntegrityDefaults[category], ...sym, categoryId: catId.get(category)! })
        .onConflictDoNothing({ target: symbols.code })
        .returning({ id: symbols.id });
      if (row && leverages.length)
        await tx
          .insert(symbolLeverages)
          .values(leverages.map((value) => ({ symbolId: row.id, value })))
          .onConflictDoNothing();
    }
    await tx.insert(areaCodes).values(seedAreaCodes).onConflictDoNothing({ target: areaCodes.code });
    if (await isEmpty(tx as unknown as Db, company)) await tx.insert(company).values(seedCompany);
    if (await isEmpty(tx as unknown as Db, news)) {
      await tx.insert(news).values(seedNews.map(({ daysAgo, ...n }) => ({ ...n, createdAt: new Date(Date.now() - daysAgo * 86_400_000) })));
    }
    // The seeded items' translations, once, for the seeded items still there (found by their image, unique to each).
    if (await isEmpty(tx as unknown as Db, newsTexts)) {
      const seeded = await tx.select({ id: news.id, logo: news.logo }).from(news).orderBy(news.id);
      const idOf = new Map(seeded.map((n) => [n.logo, n.id]));
      const rows = seedNews.flatMap((n, i) => {
        const id = n.logo ? idOf.get(n.logo) : undefined;
        return id === undefined ? [] : Object.entries(seedNewsTexts).map(([lang, items]) => ({ newsId: id, lang, ...items[i]! }));
      });
      if (rows.length) await tx.insert(newsTexts).values(rows);
    }
    if (await isEmpty(tx as unknown as Db, depositNetworks)) await tx.insert(depositNetworks).values(seedDepositNetworks);
    if (await isEmpty(tx as unknown as Db, bankWires)) await tx.insert(bankWires).values(seedBankWires);
    if (await isEmpty(tx as unknown as Db, withdrawCurrencies)) await tx.insert(withdrawCurrencies).values(seedWithdrawCurrencies);
  });
  log.debug('reference data seeded');
}
