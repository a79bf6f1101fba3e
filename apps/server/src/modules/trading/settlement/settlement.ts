import { type Dec, dec } from '@tp/contract/decimal';
import type { AppContext } from '../../../context.ts';
import type { Tx } from '../../../platform/db/client.ts';
import type { LeadStatement, Posting } from '../../ledger/index.ts';
import type { RawRow } from '../../../platform/db/client.ts';
import type { OrderRow } from '../db/repository.ts';

/** A user's balances as they stand inside the current transaction, kept up to date by every posting. */
export interface Wallet {
  userId: number;
  isDemo: boolean;
  cash: Dec;
  locked: Dec;
}

/** Entry memo: the symbol and the order number; the account log translates the entry type around it. */
export const memoOf = (showCode: string, orderId: number) => `${showCode} #${orderId}`;

/**
 * The ledger postings of every order event. Each runs inside the caller's transaction, after
 * ledger.lockUser, in the same transaction as the guarded order update that caused it.
 */
export class Settlement {
  constructor(private readonly ctx: AppContext) {}

  /** Open: margin from cash to locked, fee from cash to the house (with `lead`, the order's insert, in the same round trip). */
  open(tx: Tx, w: Wallet, order: Pick<OrderRow, 'id' | 'margin' | 'fee'>, memo: string, lead?: LeadStatement) {
    const m = dec(order.margin);
    const f = dec(order.fee);
    return this.post(tx, w, 'order_open', order.id, `order:${order.id}:open`, lead, [
      { account: { userId: w.userId, kind: 'cash' }, amount: m.neg(), type: 'margin_lock', memo },
      { account: { userId: w.userId, kind: 'locked' }, amount: m, type: 'margin_lock', memo },
      { account: { userId: w.userId, kind: 'cash' }, amount: f.neg(), type: 'trade_fee', memo },
      { account: { house: 'fees' }, amount: f, type: 'trade_fee', memo },
    ]);
  }

  /** Pending placement: margin and fee at the target price move to locked until the fill or cancel. */
  reserve(tx: Tx, w: Wallet, order: Pick<OrderRow, 'id' | 'margin' | 'fee'>, memo: string, lead?: LeadStatement) {
    const r = dec(order.margin).plus(order.fee);
    return this.post(tx, w, 'order_reserve', order.id, `order:${order.id}:reserve`, lead, [
      { account: { userId: w.userId, kind: 'cash' }, amount: r.neg(), type: 'pending_reserve', memo },
      { account: { userId: w.userId, kind: 'locked' }, amount: r, type: 'pending_reserve', memo },
    ]);
  }

  /** Cancel: the reservation goes back to cash (which may still be below zero while a loss is being covered). */
  release(tx: Tx, w: Wallet, order: OrderRow, memo: string) {
    const r = dec(order.margin).plus(order.fee);
    return this.post(
      tx,
      w,
      'order_cancel',
      order.id,
      `order:${order.id}:cancel`,
      undefined,
      [
        { account: { userId: w.userId, kind: 'locked' }, amount: r.neg(), type: 'pending_release', memo },
        { account: { userId: w.userId, kind: 'cash' }, amount: r, type: 'pending_release', memo },
      ],
      true,
    );
  }

  /** Fill: the reservation is released and margin and fee are charged again at the fill price. */
  fill(tx: Tx, w: Wallet, reserved: OrderRow, filled: OrderRow, memo: string) {
    const r = dec(reserved.margin).plus(reserved.fee);
    const m = dec(filled.margin);
    const f = dec(filled.fee);
    return this.post(tx, w, 'order_fill', filled.id, `order:${filled.id}:fill`, undefined, [
      { account: { userId: w.userId, kind: 'cash' }, amount: r, type: 'pending_release', memo },
      { account: { userId: w.userId, kind: 'locked' }, amount: r.neg(), type: 'pending_release', memo },
      { account: { userId: w.userId, kind: 'cash' }, amount: m.neg(), type: 'margin_lock', memo },
      { account: { userId: w.userId, kind: 'locked' }, amount: m, type: 'margin_lock', memo },
      { account: { userId: w.userId, kind: 'cash' }, amount: f.neg(), type: 'trade_fee', memo },
      { account: { house: 'fees' }, amount: f, type: 'trade_fee', memo },
    ]);
  }

  /**
   * Close: margin back to cash, profit between the house counterparty and cash (cash may dip below
   * zero here), and the close side's commission of a group that charges per side. With `lead`, the position's guarded close, in the same round trip (a lead that may
   * miss and did: undefined, and nothing was posted).
   */
  close(tx: Tx, w: Wallet, order: Pick<OrderRow, 'id' | 'margin' | 'profit' | 'closeFee'>, memo: string, lead?: LeadStatement) {
    const m = dec(order.margin);
    const p = dec(order.profit);
    // A group's per-side commission: the close side's, fixed at the open (the close adds it to the order's fee).
    const f = dec(order.closeFee);
    const fee: Posting[] = f.isZero()
      ? []
      : [
          { account: { userId: w.userId, kind: 'cash' }, amount: f.neg(), type: 'trade_fee', memo },
          { account: { house: 'fees' }, amount: f, type: 'trade_fee', memo },
        ];
    return this.post(
      tx,
      w,
      'order_close',
      order.id,
      `order:${order.id}:close`,
      lead,
      [
        { account: { userId: w.userId, kind: 'locked' }, amount: m.neg(), type: 'margin_release', memo },
        { account: { userId: w.userId, kind: 'cash' }, amount: m, type: 'margin_release', memo },
        { account: { userId: w.userId, kind: 'cash' }, amount: p, type: 'profit', memo },
        { account: { house: 'counterparty' }, amount: p.neg(), type: 'profit', memo },
        ...fee,
      ],
      true,
    );
  }

  /** Swap of one rollover, between the user's cash and the house (MT5's balance model: cash may go below zero while equity stays positive). */
  swap(tx: Tx, w: Wallet, orderId: number, date: string, amount: Dec, memo: string) {
    return this.post(
      tx,
      w,
      'swap',
      orderId,
      `swap:${orderId}:${date}`,
      undefined,
      [
        { account: { userId: w.userId, kind: 'cash' }, amount, type: 'swap', memo },
        { account: { house: 'swaps' }, amount: amount.neg(), type: 'swap', memo },
      ],
      true,
    );
  }

  /** Negative balance protection: the house writes off what the cash is below zero. */
  writeOff(tx: Tx, w: Wallet) {
    const shortfall = w.cash.neg();
    return this.post(tx, w, 'writeoff', w.userId, undefined, undefined, [
      { account: { userId: w.userId, kind: 'cash' }, amount: shortfall, type: 'writeoff', memo: '' },
      { account: { house: 'writeoff' }, amount: shortfall.neg(), type: 'writeoff', memo: '' },
    ]);
  }

  /** Demo accounts: cash set to `amount` more or less, against the house's demo funding. */
  demoFunding(tx: Tx, w: Wallet, amount: Dec, type: 'demo_funding' | 'demo_reset', idemKey?: string) {
    return this.post(tx, w, type, w.userId, idemKey, undefined, [
      { account: { userId: w.userId, kind: 'cash' }, amount, type, memo: '' },
      { account: { house: 'demo_funding' }, amount: amount.neg(), type, memo: '' },
    ]);
  }

  private async post(
    tx: Tx,
    w: Wallet,
    kind: string,
    refId: number,
    idemKey: string | undefined,
    lead: LeadStatement | undefined,
    postings: Posting[],
    allowNegativeCash = false,
  ): Promise<RawRow | undefined> {
    const done = await this.ctx.services.ledger.post(tx, {
      kind,
      isDemo: w.isDemo,
      refType: kind === 'writeoff' || kind.startsWith('demo') ? 'user' : 'order',
      refId,
      idemKey,
      postings,
      allowNegativeCash,
      // The order update guarding this posting already made it happen once: a repeated key throws.
      duplicateIsError: true,
      lead,
    });
    // A lead that may miss found nothing to write: no money moved.
    if ('missed' in done) return undefined;
    for (const p of postings) {
      if (!('userId' in p.account)) continue;
      if (p.account.kind === 'cash') w.cash = w.cash.plus(p.amount);
      else w.locked = w.locked.plus(p.amount);
    }
    return 'lead' in done ? done.lead : undefined;
  }
}
