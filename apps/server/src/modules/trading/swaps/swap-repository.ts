import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { orders } from '../db/schema.ts';
import type { OrderRow } from '../db/repository.ts';

const OPEN = 1;

const notChargedFor = (date: string) => or(isNull(orders.swapDate), lt(orders.swapDate, date));

/** Open positions of these symbols held over the rollover and not charged for it. */
const heldOver = (symbolIds: number[], rollover: { date: string; at: number }) =>
  and(
    eq(orders.status, OPEN),
    inArray(orders.symbolId, symbolIds),
    lt(orders.openedAt, new Date(rollover.at)),
    notChargedFor(rollover.date),
  );

/**
 * Open positions that owe at least their symbol's latest counting rollover (and maybe earlier ones
 * a stopped leader missed), by id: each group is the symbols whose latest counting rollover is that one.
 */
export function positionsDue(
  db: DbOrTx,
  groups: { symbolIds: number[]; rollover: { date: string; at: number } }[],
  afterId: number,
  limit: number,
): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(or(...groups.map((g) => heldOver(g.symbolIds, g.rollover))), gt(orders.id, afterId)))
    .orderBy(asc(orders.id))
    .limit(limit);
}

/**
 * Symbols without swaps: their positions count the rollover as passed (nothing owed), so that swap
 * terms staff set later start at the next rollover and are never applied to the days before.
 */
export async function passRollover(db: DbOrTx, symbolIds: number[], rollover: { date: string; at: number }): Promise<void> {
  await db.update(orders).set({ swapDate: rollover.date }).where(heldOver(symbolIds, rollover));
}

/** One open position as it is now (inside the caller's transaction, which holds its user's lock). */
export async function openPosition(db: DbOrTx, orderId: number): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.status, OPEN)));
  return row;
}

/** Adds one rollover's swap to a still open position, once per rollover date: undefined when it is closed or already charged. */
export async function addSwap(db: DbOrTx, orderId: number, amount: string, date: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .update(orders)
    .set({ swap: sql`${orders.swap} + ${amount}::numeric`, swapDate: date })
    .where(and(eq(orders.id, orderId), eq(orders.status, OPEN), notChargedFor(date)))
    .returning();
  return row;
}
