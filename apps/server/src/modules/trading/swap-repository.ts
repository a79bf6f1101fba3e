import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { orders } from './schema.ts';
import type { OrderRow } from './repository.ts';

const OPEN = 1;

export interface SwapDue {
  id: number;
  userId: number;
  isDemo: boolean;
  symbolId: number;
  orderType: number;
  quantity: string;
  price: string | null;
}

const notChargedFor = (date: string) => or(isNull(orders.swapDate), lt(orders.swapDate, date));

/** Open positions of these symbols opened before the rollover and not yet charged for it, by id. */
export function positionsDue(
  db: DbOrTx,
  symbolIds: number[],
  rollover: { date: string; at: number },
  afterId: number,
  limit: number,
): Promise<SwapDue[]> {
  return db
    .select({
      id: orders.id,
      userId: orders.userId,
      isDemo: orders.isDemo,
      symbolId: orders.symbolId,
      orderType: orders.orderType,
      quantity: orders.quantity,
      price: orders.price,
    })
    .from(orders)
    .where(
      and(
        eq(orders.status, OPEN),
        inArray(orders.symbolId, symbolIds),
        lt(orders.openedAt, new Date(rollover.at)),
        notChargedFor(rollover.date),
        sql`${orders.id} > ${afterId}`,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
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
