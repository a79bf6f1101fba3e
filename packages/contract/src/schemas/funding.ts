import { z } from 'zod';
import { MONEY_SCALE } from '../constants.ts';
import { parseAmount } from '../decimal.ts';
import { blank, boundedText, choiceField, idField, optionalChoiceField, optionalIdField, PageInput, requiredText } from './fields.ts';

/**
 * Deposits, withdrawals and receiving accounts (spec sections 3, 4, 5, 7 "Deposit" and "Withdraw").
 * Amounts travel as exact decimal strings. Times are ISO 8601 (UTC) strings.
 */

// ---------------------------------------------------------------- field helpers

/** A user-entered amount: plain digits, positive, at most `maxDecimals` decimals; parsed to a canonical decimal string. */
export const amountField = (maxDecimals: number = MONEY_SCALE) =>
  z.unknown().transform((raw, ctx) => {
    if (blank(raw)) {
      ctx.addIssue({ code: 'custom', message: 'msg:amount_required' });
      return z.NEVER;
    }
    const parsed = parseAmount(raw, maxDecimals);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: `msg:amount_${parsed.reason}` });
      return z.NEVER;
    }
    return parsed.value.toString();
  });

const optionalId = optionalIdField;
const optionalText = (max: number) => boundedText(max).optional();

export { idField, PageInput };

const typeFilter = (values: readonly number[]) => optionalChoiceField(values);

export const PROOF_IMAGE_MAX = 500;

// ---------------------------------------------------------------- deposit

export const DepositNetworkSchema = z.object({
  id: z.number().int(),
  currency_code: z.string(),
  protocol_code: z.string(),
  address: z.string(),
  usd_price: z.string(),
});

export const DepositCurrencySchema = z.object({ currency_code: z.string(), protocols: z.array(z.string()) });

export const BankWireSchema = z.object({
  id: z.number().int(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
  bank_remark: z.string(),
  currency: z.string(),
});
/** `notice` is the translated "no channel" text when no bank wire is offered, else empty. */
export const WireInfoSchema = z.object({ bank_coin: z.array(BankWireSchema), notice: z.string() });

export const CoinDepositInput = z.object({
  number: amountField(),
  proofImg: requiredText(PROOF_IMAGE_MAX),
  address: optionalText(200),
  charge_id: idField('funding.no_payment_channel'),
});

export const WireDepositInput = z.object({
  number: amountField(),
  proofImg: requiredText(PROOF_IMAGE_MAX),
  // Checked in the service: no wire at all answers the fiat notice, a missing or unknown one "no payment channel".
  wire_id: optionalId(),
});

export const DepositListInput = PageInput.extend({ type: typeFilter([0, 1]) });

export const DepositRecordSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  /** 0 coin, 1 bank. */
  type: z.number().int(),
  currency_code: z.string(),
  /** 0 unchecked, 1 finished, 2 rejected, 3 invalid. */
  status: z.number().int(),
  status_name: z.string(),
  created_at: z.string(),
  remark: z.string(),
});
export const DepositPageSchema = z.object({ data: z.array(DepositRecordSchema), total: z.number().int() });

// ---------------------------------------------------------------- withdraw

export const WithdrawCurrencySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  protocol: z.string(),
  /** 1 coin, 2 bank. */
  type: z.number().int(),
  draw_rate: z.string(),
  /** 1 fixed fee of draw_rate (USD), otherwise draw_rate percent. */
  fee_type: z.number().int(),
  /** Units of the receiving currency per USD: received = (amount - fee) x usd_price. */
  usd_price: z.string(),
  /** Decimals of the received amount in this currency (BTC 8, USDT 6, fiat 2). */
  decimals: z.number().int(),
  min_amount: z.string(),
  max_amount: z.string(),
});
export const WithdrawCurrencyListInput = z.object({ type: typeFilter([1, 2]) });

export const DrawMethodSchema = z.object({
  id: z.number().int(),
  /** 1 coin address, 2 bank account. */
  type: z.number().int(),
  dc_address: z.string(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
  draw_currency: z.object({ id: z.number().int(), code: z.string(), protocol: z.string() }),
});
export const DrawMethodListInput = z.object({ draw_type: typeFilter([1, 2]), draw_id: optionalId() });

export const BindDrawMethodInput = z.object({
  type: choiceField([1, 2], 'input_full'),
  draw_id: idField('funding.withdraw_currency_unavailable'),
  dc_address: optionalText(200),
  bank_name: optionalText(120),
  bank_address: optionalText(200),
  bank_swift: optionalText(20),
  payee_name: optionalText(120),
  payee_account: optionalText(64),
});
export const IdInput = z.object({ id: idField('not_found') });

export const DrawInput = z.object({
  draw_currency_id: idField('funding.withdraw_currency_unavailable'),
  number: amountField(),
  memo: optionalText(200),
  draw_method_id: optionalId(),
  /** The authenticator code, when the account has two-factor sign-in on. */
  totp: optionalText(6),
});
export const DrawResultSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  fee: z.string(),
  real_number: z.string(),
  status: z.number().int(),
});

export const DrawListInput = PageInput.extend({ type: typeFilter([0, 1, 2]) });
export const DrawRecordSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  real_number: z.string(),
  fee: z.string(),
  draw_currency: z.object({ id: z.number().int(), code: z.string(), protocol: z.string() }),
  /** 0 pending review, 1 paid, 2 rejected. */
  status: z.number().int(),
  status_name: z.string(),
  created_at: z.string(),
  /** 1 coin, 2 bank. */
  type: z.number().int(),
  address: z.string(),
  payee_account: z.string(),
  memo: z.string(),
  notes: z.string(),
});
export const DrawPageSchema = z.object({ data: z.array(DrawRecordSchema), total: z.number().int() });

// ---------------------------------------------------------------- staff review

const statusFilter = (values: readonly number[]) => typeFilter(values);
const StaffUserSchema = z.object({ id: z.number().int(), uid: z.string(), email: z.string(), mobile: z.string() });

export const StaffDepositListInput = PageInput.extend({ status: statusFilter([0, 1, 2, 3]), user_id: optionalId() });
export const StaffDepositSchema = DepositRecordSchema.extend({
  user: StaffUserSchema,
  /** Signed link to the proof image (works in an <img> for an hour). */
  proof_img: z.string(),
  address: z.string(),
  charge_id: z.number().int().nullable(),
  wire_id: z.number().int().nullable(),
  usd_price: z.string(),
  confirmed_amount: z.string(),
  credited_usd: z.string(),
  reviewed_by: z.number().int().nullable(),
  reviewed_at: z.string(),
  /** The proof picture is also the proof of another claim (the same upload, or the same bytes uploaded again). */
  proof_reused: z.boolean(),
  /** Those other claims' ids, oldest first (at most 20). */
  proof_reused_by: z.array(z.number().int()),
});
export const StaffDepositPageSchema = z.object({ data: z.array(StaffDepositSchema), total: z.number().int() });
export const ApproveDepositInput = z.object({ id: idField('not_found'), amount: amountField() });
export const RejectInput = z.object({ id: idField('not_found'), remark: requiredText(500) });

export const StaffWithdrawalListInput = PageInput.extend({ status: statusFilter([0, 1, 2]), user_id: optionalId() });
export const StaffWithdrawalSchema = DrawRecordSchema.extend({
  user: StaffUserSchema,
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  tx_ref: z.string(),
  reviewed_by: z.number().int().nullable(),
  reviewed_at: z.string(),
});
export const StaffWithdrawalPageSchema = z.object({ data: z.array(StaffWithdrawalSchema), total: z.number().int() });
export const ApproveWithdrawalInput = z.object({ id: idField('not_found'), tx_ref: requiredText(200) });

export type DepositRecord = z.infer<typeof DepositRecordSchema>;
export type DrawRecord = z.infer<typeof DrawRecordSchema>;
export type DrawMethod = z.infer<typeof DrawMethodSchema>;
export type WithdrawCurrency = z.infer<typeof WithdrawCurrencySchema>;
export type StaffDeposit = z.infer<typeof StaffDepositSchema>;
export type StaffWithdrawal = z.infer<typeof StaffWithdrawalSchema>;
