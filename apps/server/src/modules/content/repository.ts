import { and, asc, count, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { company, news, newsTexts } from './schema.ts';
import { settings } from '../../platform/db/platform-schema.ts';

export type NewsRow = typeof news.$inferSelect;
export type NewNews = Omit<typeof news.$inferInsert, 'id' | 'createdAt'>;
export type NewsTextRow = typeof newsTexts.$inferSelect;
export type CompanyRow = typeof company.$inferSelect;
export type NewCompany = Omit<typeof company.$inferInsert, 'id'>;

export interface PageQuery {
  limit: number;
  offset: number;
}

/** A translated field, else the English one (a language staff left empty is served in English). */
const localized = (field: 'title' | 'desc' | 'content') =>
  sql<string>`coalesce(nullif(${newsTexts[field]}, ''), ${news[field]})`.as(field);

/** The list's fields, title and desc in the joined language (English where that language is empty). */
const newsSummary = { id: news.id, title: localized('title'), desc: localized('desc'), logo: news.logo, createdAt: news.createdAt };
const textsOf = (lang: string) => and(eq(newsTexts.newsId, news.id), eq(newsTexts.lang, lang));

/** `lang`: the reader's language ('en', the reference, has no stored translations: the English text). */
export async function listNews(db: DbOrTx, filter: { categoryId?: number; publishedOnly: boolean; lang: string }, page: PageQuery) {
  const conds: SQL[] = [];
  if (filter.categoryId !== undefined) conds.push(eq(news.categoryId, filter.categoryId));
  if (filter.publishedOnly) conds.push(eq(news.published, true));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...newsSummary, categoryId: news.categoryId, published: news.published })
      .from(news)
      .leftJoin(newsTexts, textsOf(filter.lang))
      .where(where)
      .orderBy(desc(news.createdAt), desc(news.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(news).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findNews(db: DbOrTx, id: number, publishedOnly: boolean): Promise<NewsRow | undefined> {
  const conds = [eq(news.id, id)];
  if (publishedOnly) conds.push(eq(news.published, true));
  const [row] = await db
    .select()
    .from(news)
    .where(and(...conds))
    .limit(1);
  return row;
}

/** One news item with its text in `lang` (English fields where that language is empty). */
export async function findLocalizedNews(db: DbOrTx, id: number, lang: string): Promise<NewsRow | undefined> {
  const [row] = await db
    .select({
      id: news.id,
      categoryId: news.categoryId,
      title: localized('title'),
      desc: localized('desc'),
      logo: news.logo,
      content: localized('content'),
      published: news.published,
      createdAt: news.createdAt,
    })
    .from(news)
    .leftJoin(newsTexts, textsOf(lang))
    .where(and(eq(news.id, id), eq(news.published, true)))
    .limit(1);
  return row;
}

export async function listNewsTexts(db: DbOrTx, newsId: number): Promise<NewsTextRow[]> {
  return db.select().from(newsTexts).where(eq(newsTexts.newsId, newsId)).orderBy(asc(newsTexts.lang));
}

/** Replaces every stored translation of a news item with `texts` (rows whose fields are all empty are not stored). */
export async function replaceNewsTexts(db: DbOrTx, newsId: number, texts: Omit<NewsTextRow, 'newsId'>[]): Promise<void> {
  await db.delete(newsTexts).where(eq(newsTexts.newsId, newsId));
  const rows = texts.filter((t) => t.title || t.desc || t.content).map((t) => ({ ...t, newsId }));
  if (rows.length) await db.insert(newsTexts).values(rows);
}

export async function insertNews(db: DbOrTx, values: NewNews): Promise<NewsRow> {
  const [row] = await db.insert(news).values(values).returning();
  return row!;
}

export async function updateNews(db: DbOrTx, id: number, values: NewNews): Promise<NewsRow | undefined> {
  const [row] = await db.update(news).set(values).where(eq(news.id, id)).returning();
  return row;
}

export async function deleteNews(db: DbOrTx, id: number): Promise<NewsRow | undefined> {
  const [row] = await db.delete(news).where(eq(news.id, id)).returning();
  return row;
}

export async function findCompany(db: DbOrTx, id: number): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(company).where(eq(company.id, id)).limit(1);
  return row;
}

/** The main company; the lowest id when none is flagged main. */
export async function findMainCompany(db: DbOrTx): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(company).orderBy(desc(company.isMain), asc(company.id)).limit(1);
  return row;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function searchCompanies(db: DbOrTx, name: string, page: PageQuery) {
  const where = name ? ilike(company.name, likePattern(name)) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(company)
      .where(where)
      .orderBy(desc(company.isMain), asc(company.name), asc(company.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(company).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function insertCompany(db: DbOrTx, values: NewCompany): Promise<CompanyRow> {
  const [row] = await db.insert(company).values(values).returning();
  return row!;
}

export async function updateCompany(db: DbOrTx, id: number, values: NewCompany): Promise<CompanyRow | undefined> {
  const [row] = await db.update(company).set(values).where(eq(company.id, id)).returning();
  return row;
}

export async function clearMainExcept(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(company)
    .set({ isMain: false })
    .where(and(ne(company.id, id), eq(company.isMain, true)));
}

export async function readSettings(db: DbOrTx, keys: readonly string[]): Promise<Record<string, string>> {
  if (!keys.length) return {};
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, [...keys]));
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function writeSetting(db: DbOrTx, key: string, value: string): Promise<void> {
  await db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}
