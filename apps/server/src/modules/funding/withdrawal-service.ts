import { Code } from '@tp/contract/codes';
import { D, type Dec, dec, fixed, moneyStr } from '@tp/contract/decimal';
import { withdrawalOf } from '@tp/contract/formulas';
import type { Notice } from '@tp/contract/schemas/trading';
import type { AppContext, AuthStaff } from '../../context.ts';
import { accountNotice } from '../trading/index.ts';
import type { Tx } from '../../platform/db/client.ts';
import { AppError, fail, notFound } from '../../http/errors.ts';
import { money } from '../../http/i18n.ts';
import { InsufficientFundsError } from '../ledger/index.ts';
import {
  activeDrawMethods,
  type DrawMethodRow,
  drawMethodsByIds,
  enabledWithdrawCurrencies,
  findOwnDrawMethod,
  findWithdrawCurrency,
  type WithdrawCurrencyRow,
  withdrawCurrenciesById,
} from './draw-method-repository.ts';
import { type PageQuery, settingValue, userSummaries } from './repository.ts';
import {
  findWithdrawal,
  insertWithdrawal,
  listWithdrawals,
  reviewWithdrawal,
  type WithdrawalFilter,
  type WithdrawalRow,
} from './withdrawal-repository.ts';

export const WithdrawalStatus = { PENDING: 0, PAID: 1, REJECTED: 2 } as const;

export interface DrawRequest {
  drawCurrencyId: number;
  number: string;
  memo?: string;
  drawMethodId?: number;
}

const insufficient = () => new AppError(Code.INSUFFICIENT_MARGIN, 'funding.insufficient_balance');

/** The notice of a reviewed withdrawal (its amount in USD): paid, or rejected with staff's remark. */
export function withdrawalNotice(row: WithdrawalRow): Notice | null {
  const at = row.reviewedAt ?? row.createdAt;
  if (row.status === WithdrawalStatus.PAID) return accountNotice('withdrawal_paid', at, { amount: row.number, currency: 'USD' });
  if (row.status === WithdrawalStatus.REJECTED)
    return accountNotice('withdrawal_rejected', at, { amount: row.number, currency: 'USD', reason: row.notes });
  return null;
}

/**
 * Withdrawals: the amount leaves the free balance at request into withdrawal clearing; staff then
 * pay it out (clearing -> payouts) or reject it (clearing -> the user's cash), each exactly once.
 */
export class WithdrawalService {
  constructor(private readonly ctx: AppContext) {}

  currencies(type?: number) {
    return enabledWithdrawCurrencies(this.ctx.db, type);
  }

  async request(userId: number, req: DrawRequest): Promise<WithdrawalRow> {
    const currency = await findWithdrawCurrency(this.ctx.db, req.drawCurrencyId);
    if (!currency?.enabled) throw fail('funding.withdraw_currency_unavailable');
    if ((await this.requiresIdentity()) && !(await this.ctx.services.identity.isVerified(userId))) throw fail('funding.identity_required');
    const method = await this.methodFor(userId, currency, req.drawMethodId);
    const amount = dec(req.number);
    if (amount.lt(currency.minAmount)) throw fail('funding.withdraw_below_min', { min: money(currency.minAmount) });
    if (amount.gt(currency.maxAmount)) throw fail('funding.withdraw_above_max', { max: money(currency.maxAmount) });
    const { fee, received } = withdrawalOf(amount, currency.feeType, currency.drawRate, currency.unitsPerUsd, currency.decimals);
    const { ledger } = this.ctx.services;
    try {
      return await this.ctx.db.transaction(async (tx) => {
        if (amount.gt(await this.withdrawable(tx, userId))) throw insufficient();
        const row = await insertWithdrawal(tx, {
          userId,
          drawCurrencyId: currency.id,
          drawMethodId: method.id,
          type: currency.type,
          number: moneyStr(amount),
          fee: moneyStr(fee),
          realNumber: fixed(received, currency.decimals),
          address: method.dcAddress,
          payeeAccount: method.payeeAccount,
          memo: req.memo || null,
        });
        await ledger.post(tx, {
          kind: 'withdraw',
          isDemo: false,
          refType: 'withdrawal',
          refId: row.id,
          idemKey: `withdraw:${row.id}`,
          postings: [
            { account: { userId, kind: 'cash' }, amount: amount.neg(), type: 'withdraw', memo: `${currency.code} #${row.id}` },
            { account: { house: 'withdraw_clearing' }, amount, type: 'withdraw', memo: `${currency.code} #${row.id}` },
          ],
        });
        return row;
      });
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw insufficient();
      throw err;
    }
  }

  async list(filter: WithdrawalFilter, page: PageQuery) {
    const { rows, total } = await listWithdrawals(this.ctx.db, filter, page);
    return { rows, total, currencies: await withdrawCurrenciesById(this.ctx.db) };
  }

  /** The staff review list: withdrawals with their user and the receiving account they go to. */
  async reviewList(filter: WithdrawalFilter, page: PageQuery) {
    const { rows, total, currencies } = await this.list(filter, page);
    const users = await userSummaries(
      this.ctx.db,
      rows.map((r) => r.userId),
    );
    const methods = await drawMethodsByIds(
      this.ctx.db,
      rows.map((r) => r.drawMethodId),
    );
    return {
      total,
      items: rows.map((w) => ({
        withdrawal: w,
        currency: currencies.get(w.drawCurrencyId),
        user: users.get(w.userId),
        method: methods.get(w.drawMethodId),
      })),
    };
  }

  async reviewItem(withdrawal: WithdrawalRow) {
    const currency = await findWithdrawCurrency(this.ctx.db, withdrawal.drawCurrencyId);
    const users = await userSummaries(this.ctx.db, [withdrawal.userId]);
    const methods = await drawMethodsByIds(this.ctx.db, [withdrawal.drawMethodId]);
    return { withdrawal, currency, user: users.get(withdrawal.userId), method: methods.get(withdrawal.drawMethodId) };
  }

  /**
   * Paid out: the transaction reference is recorded; the amount leaves clearing, its fee to fee
   * income and the rest (what is actually paid, in USD) to payouts.
   */
  async approve(staff: AuthStaff, id: number, txRef: string): Promise<WithdrawalRow> {
    const request = await this.pending(id);
    const reviewed = await this.ctx.db.transaction(async (tx) => {
      await this.stillCovered(tx, request);
      const row = await reviewWithdrawal(tx, id, { status: WithdrawalStatus.PAID, reviewedBy: staff.id, txRef });
      if (!row) throw fail('funding.withdrawal_already_reviewed');
      const posted = await this.ctx.services.ledger.post(tx, {
        kind: 'withdraw_paid',
        isDemo: false,
        refType: 'withdrawal',
        refId: id,
        idemKey: `withdraw-paid:${id}`,
        postings: [
          { account: { house: 'withdraw_clearing' }, amount: dec(row.number).neg(), type: 'withdraw_paid', memo: `#${id}` },
          { account: { house: 'fees' }, amount: row.fee, type: 'withdraw_fee', memo: `#${id}` },
          { account: { house: 'payouts' }, amount: dec(row.number).minus(row.fee), type: 'withdraw_paid', memo: `#${id}` },
        ],
      });
      if ('duplicate' in posted) throw fail('funding.withdrawal_already_reviewed');
      await this.ctx.services.staff.audit(
        tx,
        staff,
        'withdrawal.approve',
        { type: 'withdrawal', id },
        { status: WithdrawalStatus.PENDING },
        { status: row.status, tx_ref: txRef },
      );
      return row;
    });
    this.announce(reviewed);
    return reviewed;
  }

  /** The trader hears about a review once it is committed (NOTICE push; the notification list reads the withdrawal). */
  private announce(row: WithdrawalRow): void {
    const notice = withdrawalNotice(row);
    if (notice) this.ctx.services.trading.accountNotices.publish(row.userId, notice);
  }

  /** Rejected: the whole amount returns to the user's free balance. */
  async reject(staff: AuthStaff, id: number, remark: string): Promise<WithdrawalRow> {
    await this.pending(id);
    const reviewed = await this.ctx.db.transaction(async (tx) => {
      const row = await reviewWithdrawal(tx, id, { status: WithdrawalStatus.REJECTED, reviewedBy: staff.id, notes: remark });
      if (!row) throw fail('funding.withdrawal_already_reviewed');
      const posted = await this.ctx.services.ledger.post(tx, {
        kind: 'withdraw_refund',
        isDemo: false,
        refType: 'withdrawal',
        refId: id,
        idemKey: `withdraw-reject:${id}`,
        postings: [
          { account: { house: 'withdraw_clearing' }, amount: dec(row.number).neg(), type: 'withdraw_refund', memo: `#${id}` },
          { account: { userId: row.userId, kind: 'cash' }, amount: row.number, type: 'withdraw_refund', memo: `#${id}` },
        ],
      });
      if ('duplicate' in posted) throw fail('funding.withdrawal_already_reviewed');
      await this.ctx.services.staff.audit(
        tx,
        staff,
        'withdrawal.reject',
        { type: 'withdrawal', id },
        { status: WithdrawalStatus.PENDING },
        { status: row.status, remark },
      );
      return row;
    });
    this.announce(reviewed);
    return reviewed;
  }

  /**
   * Paid out only if the account still stands behind the request, under the user's lock: no loss of
   * the account written off by the house since the request (the amount would be paid twice, once to
   * the trader and once as the write-off), and neither the cash nor the equity below zero now.
   * Refused otherwise; the request stays pending for staff to reject (the amount back to the cash).
   */
  private async stillCovered(tx: Tx, request: WithdrawalRow): Promise<void> {
    const { balance } = await this.ctx.services.ledger.lockUser(tx, request.userId);
    const figures = await this.ctx.services.trading.accountFigures(request.userId, tx);
    const writtenOff = await this.ctx.services.ledger.writtenOffSince(tx, request.userId, `withdraw:${request.id}`);
    if (writtenOff || balance.isNegative() || figures.equity.isNegative()) throw fail('funding.withdrawal_account_changed');
  }

  /** Under the user's lock: never more than the free balance nor the free margin (equity - lock_balance). */
  private async withdrawable(tx: Tx, userId: number): Promise<Dec> {
    const { balance } = await this.ctx.services.ledger.lockUser(tx, userId);
    const figures = await this.ctx.services.trading.accountFigures(userId, tx);
    return D.min(balance, figures.freeMargin);
  }

  private async requiresIdentity(): Promise<boolean> {
    return ((await settingValue(this.ctx.db, 'withdraw_requires_identity')) ?? '1') === '1';
  }

  /** The bound method the user chose, of the currency being withdrawn. */
  private async methodFor(userId: number, currency: WithdrawCurrencyRow, drawMethodId: number | undefined): Promise<DrawMethodRow> {
    if (drawMethodId === undefined) {
      const bound = await activeDrawMethods(this.ctx.db, userId, { drawCurrencyId: currency.id });
      throw fail(bound.length ? 'funding.choose_withdraw_address' : 'funding.bind_payment_account_first');
    }
    const method = await findOwnDrawMethod(this.ctx.db, userId, drawMethodId);
    if (!method || method.deletedAt) throw notFound('funding.draw_method_not_found');
    if (method.drawCurrencyId !== currency.id) throw fail('funding.bind_payment_account_first');
    return method;
  }

  private async pending(id: number): Promise<WithdrawalRow> {
    const row = await findWithdrawal(this.ctx.db, id);
    if (!row) throw notFound();
    if (row.status !== WithdrawalStatus.PENDING) throw fail('funding.withdrawal_already_reviewed');
    return row;
  }
}
