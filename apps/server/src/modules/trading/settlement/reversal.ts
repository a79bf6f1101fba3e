import { OrderStatus } from '@tp/contract/constants';
import { dec } from '@tp/contract/decimal';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../../context.ts';
import { fail, notFound } from '../../../http/errors.ts';
import type { Tx } from '../../../platform/db/client.ts';
import { InsufficientFundsError } from '../../ledger/index.ts';
import { findOrder, type OrderRow } from '../db/repository.ts';
import { orders } from '../db/schema.ts';

/** The ledger's kind and entry type of a staff reversal of a closed trade. */
export const REVERSAL_ENTRY = 'trade_reversal';

/**
 * Staff reverse a closed trade (e.g. filled on an off-market price): its realised profit or loss goes
 * back to the house's counterparty account and its fee back to the trader, in one ledger transaction of
 * the caller's (entries summing to zero), with the order's guarded mark (reversed_at) so a trade is
 * reversed once: a second reversal finds nothing to mark and is refused. The trader's cash must cover
 * a profit taken back (refused otherwise: staff settle that with a balance adjustment first). Swaps are
 * left as they were. Answers the order as it was and as it is.
 */
export async function reverseClosedOrder(
  ctx: AppContext,
  tx: Tx,
  who: { id: number },
  orderId: number,
  reason: string,
): Promise<{ before: OrderRow; after: OrderRow }> {
  const before = await findOrder(tx, orderId);
  if (!before) throw notFound();
  if (before.status !== OrderStatus.CLOSED) throw fail('admin.reversal_not_closed');
  if (before.reversedAt) throw fail('admin.reversal_done');
  await ctx.services.ledger.lockUser(tx, before.userId);
  const [after] = await tx
    .update(orders)
    .set({ reversedAt: new Date(), reversedBy: who.id, reversalReason: reason })
    .where(and(eq(orders.id, orderId), eq(orders.status, OrderStatus.CLOSED), isNull(orders.reversedAt)))
    .returning();
  if (!after) throw fail('admin.reversal_done');
  const profit = dec(after.profit);
  const fee = dec(after.fee);
  const memo = `#${after.id}`;
  try {
    await ctx.services.ledger.post(tx, {
      kind: REVERSAL_ENTRY,
      isDemo: after.isDemo,
      refType: 'order',
      refId: after.id,
      idemKey: `trade_reversal:${after.id}`,
      duplicateIsError: true,
      postings: [
        { account: { userId: after.userId, kind: 'cash' }, amount: profit.neg(), type: REVERSAL_ENTRY, memo },
        { account: { house: 'counterparty' }, amount: profit, type: REVERSAL_ENTRY, memo },
        { account: { userId: after.userId, kind: 'cash' }, amount: fee, type: REVERSAL_ENTRY, memo },
        { account: { house: 'fees' }, amount: fee.neg(), type: REVERSAL_ENTRY, memo },
      ],
    });
  } catch (err) {
    if (err instanceof InsufficientFundsError) throw fail('admin.reversal_insufficient');
    throw err;
  }
  return { before, after };
}
