import type { DepositRecord, DrawMethod, DrawRecord, StaffDeposit, StaffWithdrawal, WithdrawCurrency } from '@tp/contract/schemas/funding';
import { dec } from '@tp/contract/decimal';
import { t } from '../../http/i18n.ts';
import type { BankWireRow, DepositNetworkRow, DepositRow } from './deposit-repository.ts';
import type { DrawMethodRow, WithdrawCurrencyRow } from './draw-method-repository.ts';
import type { UserSummary } from './repository.ts';
import type { WithdrawalRow } from './withdrawal-repository.ts';

/** Rows as the spec's clients see them: snake_case fields, exact decimal strings, ISO times. */

const amount = (v: string | null | undefined) => (v == null ? '' : dec(v).toString());
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');
const unknownUser = (id: number): UserSummary => ({ id, uid: '', email: '', mobile: '' });

export const networkRecord = (n: DepositNetworkRow) => ({
  id: n.id,
  currency_code: n.currencyCode,
  protocol_code: n.protocolCode,
  address: n.address,
  usd_price: amount(n.usdPerUnit),
});

export function currencyRecords(networks: DepositNetworkRow[]) {
  const byCode = new Map<string, string[]>();
  for (const n of networks) byCode.set(n.currencyCode, [...(byCode.get(n.currencyCode) ?? []), n.protocolCode]);
  return [...byCode].map(([currency_code, protocols]) => ({ currency_code, protocols }));
}

export const wireRecord = (w: BankWireRow) => ({
  id: w.id,
  bank_name: w.bankName,
  bank_address: w.bankAddress,
  bank_swift: w.bankSwift,
  payee_name: w.payeeName,
  payee_account: w.payeeAccount,
  bank_remark: w.bankRemark,
  currency: w.currency,
});

export const depositRecord = (d: DepositRow, lang: string): DepositRecord => ({
  id: d.id,
  number: amount(d.number),
  type: d.type,
  currency_code: d.currencyCode,
  status: d.status,
  status_name: t(lang, `funding.deposit_status_${d.status}`),
  created_at: iso(d.createdAt),
  remark: d.remark ?? '',
});

export interface DepositReviewItem {
  deposit: DepositRow;
  user: UserSummary | undefined;
  usdPrice: string | null;
  proofUrl: string;
  /** Other claims whose proof is the same picture. */
  proofReusedBy: number[];
}

export const staffDepositRecord = (
  { deposit: d, user, usdPrice, proofUrl, proofReusedBy }: DepositReviewItem,
  lang: string,
): StaffDeposit => ({
  ...depositRecord(d, lang),
  user: user ?? unknownUser(d.userId),
  proof_img: proofUrl,
  address: d.address ?? '',
  charge_id: d.chargeId,
  wire_id: d.wireId,
  usd_price: amount(usdPrice),
  confirmed_amount: amount(d.confirmedAmount),
  credited_usd: amount(d.creditedUsd),
  reviewed_by: d.reviewedBy,
  reviewed_at: iso(d.reviewedAt),
  proof_reused: proofReusedBy.length > 0,
  proof_reused_by: proofReusedBy,
});

export const withdrawCurrencyRecord = (c: WithdrawCurrencyRow): WithdrawCurrency => ({
  id: c.id,
  code: c.code,
  protocol: c.protocol,
  type: c.type,
  draw_rate: amount(c.drawRate),
  fee_type: c.feeType,
  usd_price: amount(c.unitsPerUsd),
  decimals: c.decimals,
  min_amount: amount(c.minAmount),
  max_amount: amount(c.maxAmount),
});

const currencyRef = (id: number, c: WithdrawCurrencyRow | undefined) => ({ id, code: c?.code ?? '', protocol: c?.protocol ?? '' });

export const drawMethodRecord = (m: DrawMethodRow, currency: WithdrawCurrencyRow | undefined): DrawMethod => ({
  id: m.id,
  type: m.type,
  dc_address: m.dcAddress ?? '',
  bank_name: m.bankName ?? '',
  bank_address: m.bankAddress ?? '',
  bank_swift: m.bankSwift ?? '',
  payee_name: m.payeeName ?? '',
  payee_account: m.payeeAccount ?? '',
  draw_currency: currencyRef(m.drawCurrencyId, currency),
});

export const drawRecord = (w: WithdrawalRow, currency: WithdrawCurrencyRow | undefined, lang: string): DrawRecord => ({
  id: w.id,
  number: amount(w.number),
  real_number: amount(w.realNumber),
  fee: amount(w.fee),
  draw_currency: currencyRef(w.drawCurrencyId, currency),
  status: w.status,
  status_name: t(lang, `funding.withdraw_status_${w.status}`),
  created_at: iso(w.createdAt),
  type: w.type,
  address: w.address ?? '',
  payee_account: w.payeeAccount ?? '',
  memo: w.memo ?? '',
  notes: w.notes ?? '',
});

export const staffWithdrawalRecord = (
  w: WithdrawalRow,
  currency: WithdrawCurrencyRow | undefined,
  lang: string,
  user: UserSummary | undefined,
  method: DrawMethodRow | undefined,
): StaffWithdrawal => ({
  ...drawRecord(w, currency, lang),
  user: user ?? unknownUser(w.userId),
  bank_name: method?.bankName ?? '',
  bank_address: method?.bankAddress ?? '',
  bank_swift: method?.bankSwift ?? '',
  payee_name: method?.payeeName ?? '',
  tx_ref: w.txRef ?? '',
  reviewed_by: w.reviewedBy,
  reviewed_at: iso(w.reviewedAt),
});
