import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { bankWires, depositNetworks, deposits } from './schema.ts';
import { countAll, offsetOf, type PageQuery } from './repository.ts';

export type DepositRow = typeof deposits.$inferSelect;
export type DepositNetworkRow = typeof depositNetworks.$inferSelect;
export type BankWireRow = typeof bankWires.$inferSelect;

export async function enabledNetworks(db: DbOrTx): Promise<DepositNetworkRow[]> {
  return db.select().from(depositNetworks).where(eq(depositNetworks.enabled, true)).orderBy(asc(depositNetworks.id));
}

export async function enabledWires(db: DbOrTx): Promise<BankWireRow[]> {
  return db.select().from(bankWires).where(eq(bankWires.enabled, true)).orderBy(asc(bankWires.id));
}

export async function findNetwork(db: DbOrTx, id: number): Promise<DepositNetworkRow | undefined> {
  const [row] = await db.select().from(depositNetworks).where(eq(depositNetworks.id, id)).limit(1);
  return row;
}

export async function findWire(db: DbOrTx, id: number): Promise<BankWireRow | undefined> {
  const [row] = await db.select().from(bankWires).where(eq(bankWires.id, id)).limit(1);
  return row;
}

export async function insertDeposit(db: DbOrTx, values: typeof deposits.$inferInsert): Promise<DepositRow> {
  const [row] = await db.insert(deposits).values(values).returning();
  return row!;
}

export async function findDeposit(db: DbOrTx, id: number): Promise<DepositRow | undefined> {
  const [row] = await db.select().from(deposits).where(eq(deposits.id, id)).limit(1);
  return row;
}

export interface DepositFilter {
  userId?: number;
  type?: number;
  status?: number;
}

function whereOf(f: DepositFilter): SQL | undefined {
  const conds: SQL[] = [];
  if (f.userId !== undefined) conds.push(eq(deposits.userId, f.userId));
  if (f.type !== undefined) conds.push(eq(deposits.type, f.type));
  if (f.status !== undefined) conds.push(eq(deposits.status, f.status));
  return conds.length ? and(...conds) : undefined;
}

export async function listDeposits(db: DbOrTx, filter: DepositFilter, page: PageQuery): Promise<{ rows: DepositRow[]; total: number }> {
  const where = whereOf(filter);
  const rows = await db.select().from(deposits).where(where).orderBy(desc(deposits.id)).limit(page.limit).offset(offsetOf(page));
  const [count] = await db.select({ n: countAll }).from(deposits).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Every deposit claim (any user, any status) whose proof is one of `paths`: id and proof, oldest first. */
export async function depositsWithProofs(db: DbOrTx, paths: string[]): Promise<{ id: number; proofImg: string }[]> {
  if (!paths.length) return [];
  return db
    .select({ id: deposits.id, proofImg: deposits.proofImg })
    .from(deposits)
    .where(inArray(deposits.proofImg, paths))
    .orderBy(asc(deposits.id));
}

/**
 * Moves a deposit out of "unchecked" to a reviewed status; answers null when it was no longer
 * unchecked (another reviewer got there first), so a review happens once.
 */
export async function reviewDeposit(
  db: DbOrTx,
  id: number,
  review: { status: number; reviewedBy: number; remark?: string | null; confirmedAmount?: string; creditedUsd?: string },
): Promise<DepositRow | null> {
  const [row] = await db
    .update(deposits)
    .set({ ...review, reviewedAt: new Date() })
    .where(and(eq(deposits.id, id), eq(deposits.status, 0)))
    .returning();
  return row ?? null;
}

/** USD prices of every network and wire, enabled or not, for the review list. */
export async function channelPrices(db: DbOrTx): Promise<{ networks: Map<number, string>; wires: Map<number, string> }> {
  const networks = await db.select({ id: depositNetworks.id, usdPrice: depositNetworks.usdPerUnit }).from(depositNetworks);
  const wires = await db.select({ id: bankWires.id, usdPrice: bankWires.usdPerUnit }).from(bankWires);
  return { networks: new Map(networks.map((n) => [n.id, n.usdPrice])), wires: new Map(wires.map((w) => [w.id, w.usdPrice])) };
}
