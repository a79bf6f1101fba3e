import { DepositStatus, DepositType } from '@tp/contract/constants';
import { dec, money, moneyStr } from '@tp/contract/decimal';
import type { Notice } from '@tp/contract/schemas/trading';
import type { AppContext, AuthStaff } from '../../context.ts';
import { accountNotice } from '../trading/index.ts';
import { fail, invalid, notFound } from '../../http/errors.ts';
import {
  channelPrices,
  depositsWithProofs,
  type DepositFilter,
  type DepositRow,
  enabledNetworks,
  enabledWires,
  findDeposit,
  findNetwork,
  findWire,
  insertDeposit,
  listDeposits,
  reviewDeposit,
} from './deposit-repository.ts';
import { type PageQuery, userSummaries } from './repository.ts';

export interface DepositSubmission {
  number: string;
  proofImg: string;
}

/** How many other claims a reused proof names at most (the flag is what matters). */
const MAX_REUSE_IDS = 20;

/** The notice of a reviewed deposit: approved with the amount staff confirmed, rejected with the amount asked and staff's remark. */
export function depositNotice(row: DepositRow): Notice | null {
  const at = row.reviewedAt ?? row.createdAt;
  if (row.status === DepositStatus.FINISHED)
    return accountNotice('deposit_approved', at, { amount: row.confirmedAmount ?? row.number, currency: row.currencyCode });
  if (row.status === DepositStatus.REJECTED)
    return accountNotice('deposit_rejected', at, { amount: row.number, currency: row.currencyCode, reason: row.remark });
  return null;
}

/** Deposits: the user declares a transfer with a proof; only staff approval credits the account, once. */
export class DepositService {
  constructor(private readonly ctx: AppContext) {}

  networks() {
    return enabledNetworks(this.ctx.db);
  }

  wires() {
    return enabledWires(this.ctx.db);
  }

  async submitCoin(userId: number, input: DepositSubmission & { chargeId: number; address?: string }): Promise<DepositRow> {
    const network = await findNetwork(this.ctx.db, input.chargeId);
    if (!network?.enabled) throw fail('funding.no_payment_channel');
    const proofImg = await this.proof(userId, input.proofImg);
    return insertDeposit(this.ctx.db, {
      userId,
      type: DepositType.COIN,
      number: moneyStr(input.number),
      currencyCode: network.currencyCode,
      chargeId: network.id,
      address: input.address || network.address,
      proofImg,
    });
  }

  async submitWire(userId: number, input: DepositSubmission & { wireId?: number }): Promise<DepositRow> {
    const wires = await enabledWires(this.ctx.db);
    if (!wires.length) throw fail('funding.fiat_no_channel');
    const wire = wires.find((w) => w.id === input.wireId);
    if (!wire) throw fail('funding.no_payment_channel');
    const proofImg = await this.proof(userId, input.proofImg);
    return insertDeposit(this.ctx.db, {
      userId,
      type: DepositType.BANK,
      number: moneyStr(input.number),
      currencyCode: wire.currency,
      wireId: wire.id,
      proofImg,
    });
  }

  list(filter: DepositFilter, page: PageQuery) {
    return listDeposits(this.ctx.db, filter, page);
  }

  /** The staff review list: deposits with their user and the USD price their channel converts at. */
  async reviewList(filter: DepositFilter, page: PageQuery) {
    const { rows, total } = await listDeposits(this.ctx.db, filter, page);
    const users = await userSummaries(
      this.ctx.db,
      rows.map((r) => r.userId),
    );
    const prices = await channelPrices(this.ctx.db);
    const usdPriceOf = (d: DepositRow) =>
      (d.chargeId !== null ? prices.networks.get(d.chargeId) : d.wireId !== null ? prices.wires.get(d.wireId) : undefined) ?? null;
    const reused = await this.proofReuse(rows);
    const items = await Promise.all(
      rows.map(async (deposit) => ({
        deposit,
        user: users.get(deposit.userId),
        usdPrice: usdPriceOf(deposit),
        proofUrl: await this.proofUrl(deposit),
        proofReusedBy: reused.get(deposit.id) ?? [],
      })),
    );
    return { total, items };
  }

  async reviewItem(deposit: DepositRow) {
    const users = await userSummaries(this.ctx.db, [deposit.userId]);
    return {
      deposit,
      user: users.get(deposit.userId),
      usdPrice: await this.usdPriceOf(deposit),
      proofUrl: await this.proofUrl(deposit),
      proofReusedBy: (await this.proofReuse([deposit])).get(deposit.id) ?? [],
    };
  }

  /**
   * For each deposit, the other claims (any user, any status) whose proof is the same picture: the
   * same upload, or another upload of the same bytes. Staff see the flag; the trader is not refused.
   */
  private async proofReuse(rows: DepositRow[]): Promise<Map<number, number[]>> {
    const proofs = [...new Set(rows.map((r) => r.proofImg))];
    const same = await this.ctx.services.uploads.sameContent(proofs);
    const claims = await depositsWithProofs(this.ctx.db, [...new Set([...proofs, ...[...same.values()].flat()])]);
    const out = new Map<number, number[]>();
    for (const row of rows) {
      const paths = new Set(same.get(row.proofImg) ?? [row.proofImg]);
      const others = claims.filter((c) => c.id !== row.id && paths.has(c.proofImg)).map((c) => c.id);
      if (others.length) out.set(row.id, others.slice(0, MAX_REUSE_IDS));
    }
    return out;
  }

  /** A signed link to the proof, so the back office can show it in an <img> for a while. */
  private proofUrl(deposit: DepositRow): Promise<string> {
    return this.ctx.services.uploads.signedUrl(deposit.proofImg);
  }

  /** USD per unit of the deposit's currency, from its network or wire. */
  async usdPriceOf(deposit: DepositRow): Promise<string | null> {
    if (deposit.chargeId !== null) return (await findNetwork(this.ctx.db, deposit.chargeId))?.usdPerUnit ?? null;
    if (deposit.wireId !== null) return (await findWire(this.ctx.db, deposit.wireId))?.usdPerUnit ?? null;
    return null;
  }

  /** Credits `amount` (in the deposit's currency, as staff confirm it) converted to USD, exactly once. */
  async approve(staff: AuthStaff, id: number, amount: string): Promise<DepositRow> {
    const deposit = await this.unchecked(id);
    const usdPrice = await this.usdPriceOf(deposit);
    if (usdPrice === null) throw fail('funding.no_payment_channel');
    const credited = money(dec(amount).mul(usdPrice));
    if (!credited.isPositive()) throw invalid('amount_zero');
    const { ledger } = this.ctx.services;
    const reviewed = await this.ctx.db.transaction(async (tx) => {
      const row = await reviewDeposit(tx, id, {
        status: DepositStatus.FINISHED,
        reviewedBy: staff.id,
        confirmedAmount: moneyStr(amount),
        creditedUsd: moneyStr(credited),
      });
      if (!row) throw fail('funding.deposit_already_reviewed');
      const posted = await ledger.post(tx, {
        kind: 'deposit',
        isDemo: false,
        refType: 'deposit',
        refId: id,
        idemKey: `deposit:${id}`,
        postings: [
          { account: { userId: row.userId, kind: 'cash' }, amount: credited, type: 'deposit', memo: `${row.currencyCode} #${id}` },
          { account: { house: 'deposit_clearing' }, amount: credited.neg(), type: 'deposit', memo: `${row.currencyCode} #${id}` },
        ],
      });
      if ('duplicate' in posted) throw fail('funding.deposit_already_reviewed');
      await this.ctx.services.staff.audit(
        tx,
        staff,
        'deposit.approve',
        { type: 'deposit', id },
        { status: deposit.status },
        {
          status: row.status,
          confirmed_amount: row.confirmedAmount,
          credited_usd: row.creditedUsd,
          usd_price: usdPrice,
        },
      );
      return row;
    });
    this.announce(reviewed);
    return reviewed;
  }

  /** The trader hears about a review once it is committed (NOTICE push; the notification list reads the deposit). */
  private announce(row: DepositRow): void {
    const notice = depositNotice(row);
    if (notice) this.ctx.services.trading.accountNotices.publish(row.userId, notice);
  }

  reject(staff: AuthStaff, id: number, remark: string): Promise<DepositRow> {
    return this.close(staff, id, DepositStatus.REJECTED, 'deposit.reject', remark);
  }

  markInvalid(staff: AuthStaff, id: number): Promise<DepositRow> {
    return this.close(staff, id, DepositStatus.INVALID, 'deposit.invalid', null);
  }

  /** Ends a review without money: rejected (remark shown to the user) or invalid. */
  private async close(staff: AuthStaff, id: number, status: number, action: string, remark: string | null): Promise<DepositRow> {
    const deposit = await this.unchecked(id);
    const reviewed = await this.ctx.db.transaction(async (tx) => {
      const row = await reviewDeposit(tx, id, { status, reviewedBy: staff.id, remark });
      if (!row) throw fail('funding.deposit_already_reviewed');
      await this.ctx.services.staff.audit(tx, staff, action, { type: 'deposit', id }, { status: deposit.status }, { status, remark });
      return row;
    });
    this.announce(reviewed);
    return reviewed;
  }

  private async unchecked(id: number): Promise<DepositRow> {
    const deposit = await findDeposit(this.ctx.db, id);
    if (!deposit) throw notFound();
    if (deposit.status !== DepositStatus.UNCHECKED) throw fail('funding.deposit_already_reviewed');
    return deposit;
  }

  /** The proof must be one of this user's uploads; stored as its stable `/uploads/<key>` path. */
  private async proof(userId: number, url: string): Promise<string> {
    const key = await this.ctx.services.uploads.ownedKey(userId, url);
    if (!key) throw invalid('funding.proof_invalid');
    return this.ctx.services.uploads.pathOf(key);
  }
}
