import { asc, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRaw } from '../../../platform/db/client.ts';
import { accountGroups, groupSymbols } from './schema.ts';

export type GroupTableRow = typeof accountGroups.$inferSelect;
export type GroupSymbolRow = typeof groupSymbols.$inferSelect;
export type NewGroupSymbol = typeof groupSymbols.$inferInsert;

export async function listGroupRows(db: DbOrTx): Promise<GroupTableRow[]> {
  return db.select().from(accountGroups).orderBy(asc(accountGroups.id));
}

export async function findGroupRow(db: DbOrTx, id: number, forUpdate = false): Promise<GroupTableRow | undefined> {
  const q = db.select().from(accountGroups).where(eq(accountGroups.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function groupSymbolRows(db: DbOrTx, groupId?: number): Promise<GroupSymbolRow[]> {
  const q = db.select().from(groupSymbols);
  return (groupId === undefined ? q : q.where(eq(groupSymbols.groupId, groupId))).orderBy(
    asc(groupSymbols.groupId),
    asc(groupSymbols.symbolId),
  );
}

/** How many users each group holds (users is the auth module's table, read by name only). */
export async function groupMemberCounts(db: DbOrTx): Promise<Map<number, number>> {
  const rows = await queryRaw(db, 'select group_id, count(*)::int as n from users group by group_id', []);
  return new Map(rows.map((r) => [Number(r.group_id), Number(r.n)]));
}

export async function insertGroupRow(db: DbOrTx, values: typeof accountGroups.$inferInsert): Promise<GroupTableRow> {
  const [row] = await db.insert(accountGroups).values(values).returning();
  return row!;
}

export async function updateGroupRow(db: DbOrTx, id: number, values: Partial<typeof accountGroups.$inferInsert>): Promise<GroupTableRow> {
  const [row] = await db
    .update(accountGroups)
    .set({ ...values, version: sql`${accountGroups.version} + 1` })
    .where(eq(accountGroups.id, id))
    .returning();
  return row!;
}

/** Makes `id` the only default group of its kind. */
export async function clearDefaultGroup(db: DbOrTx, kind: string): Promise<void> {
  await db
    .update(accountGroups)
    .set({ isDefault: false })
    .where(sql`${accountGroups.kind} = ${kind} and ${accountGroups.isDefault}`);
}

export async function replaceGroupSymbols(db: DbOrTx, groupId: number, rows: NewGroupSymbol[]): Promise<void> {
  await db.delete(groupSymbols).where(eq(groupSymbols.groupId, groupId));
  if (rows.length) await db.insert(groupSymbols).values(rows);
}
