import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  ApproveDepositInput,
  ApproveWithdrawalInput,
  BindDrawMethodInput,
  CoinDepositInput,
  DepositCurrencySchema,
  DepositListInput,
  DepositNetworkSchema,
  DepositPageSchema,
  DepositRecordSchema,
  DrawInput,
  DrawListInput,
  DrawMethodListInput,
  DrawMethodSchema,
  DrawPageSchema,
  DrawResultSchema,
  IdInput,
  RejectInput,
  StaffDepositListInput,
  StaffDepositPageSchema,
  StaffDepositSchema,
  StaffWithdrawalListInput,
  StaffWithdrawalPageSchema,
  StaffWithdrawalSchema,
  WireDepositInput,
  WireInfoSchema,
  WithdrawCurrencyListInput,
  WithdrawCurrencySchema,
} from '../schemas/funding.ts';

/** The back office's finance calls: finance role; its screens send JSON bodies. */
const FINANCE = { auth: 'staff', roles: ['finance'], body: 'json' } as const;

// ---------------------------------------------------------------- deposit (spec section 7 "Deposit")

export const depositNetworks = endpoint({
  method: 'GET',
  path: '/api/quickCharge/info',
  auth: 'user',
  realOnly: true,
  output: z.array(DepositNetworkSchema),
  summary: 'Deposit networks: currency, protocol and the address to send to',
  tags: ['deposit'],
});

export const depositCurrencies = endpoint({
  method: 'GET',
  path: '/api/quickCharge/symbols',
  auth: 'user',
  realOnly: true,
  output: z.array(DepositCurrencySchema),
  summary: 'The currencies that can be deposited, with their protocols',
  tags: ['deposit'],
});

export const wireInfo = endpoint({
  method: 'GET',
  path: '/api/quickCharge/wire_info',
  auth: 'user',
  realOnly: true,
  output: WireInfoSchema,
  summary: 'Bank wire accounts to deposit to (bank_coin); notice says so when there is none',
  tags: ['deposit'],
});

export const submitCoinDeposit = endpoint({
  // Other clients of this API family send it as GET with query parameters (the proof as an uploaded image URL).
  method: ['POST', 'GET'],
  path: '/api/quickCharge/submit',
  auth: 'user',
  realOnly: true,
  input: CoinDepositInput,
  output: DepositRecordSchema,
  summary: 'Declares a coin deposit with its proof image; credited once staff approve it',
  tags: ['deposit'],
});

export const submitWireDeposit = endpoint({
  method: 'POST',
  path: '/api/quickCharge/wire_submit',
  auth: 'user',
  realOnly: true,
  input: WireDepositInput,
  output: DepositRecordSchema,
  summary: 'Declares a bank wire deposit with its proof image; credited once staff approve it',
  tags: ['deposit'],
});

export const depositList = endpoint({
  method: 'GET',
  path: '/api/quickCharge/quick_ist',
  auth: 'user',
  realOnly: true,
  input: DepositListInput,
  output: DepositPageSchema,
  summary: 'The user’s deposit records (type 0 coin, 1 bank), newest first',
  tags: ['deposit'],
});

/** The same list under its corrected spelling. */
export const depositListAlias = endpoint({ ...depositList, path: '/api/quickCharge/quick_list' });

// ---------------------------------------------------------------- receiving accounts (spec section 7 "Withdraw")

export const drawMethods = endpoint({
  method: 'GET',
  path: '/api/wallet/get_draw_method',
  auth: 'user',
  realOnly: true,
  input: DrawMethodListInput,
  output: z.array(DrawMethodSchema),
  summary: 'The user’s bound receiving accounts (draw_type 1 coin, 2 bank; draw_id a withdrawal currency)',
  tags: ['withdraw'],
});

export const bindDrawMethod = endpoint({
  method: 'POST',
  path: '/api/wallet/bind_draw_method',
  auth: 'user',
  realOnly: true,
  input: BindDrawMethodInput,
  output: DrawMethodSchema,
  summary: 'Binds a coin address (dc_address) or a bank account to a withdrawal currency (draw_id)',
  tags: ['withdraw'],
});

/** The spec names bind and delete without their folder; both spellings are served. */
export const bindDrawMethodBare = endpoint({ ...bindDrawMethod, path: '/api/bind_draw_method' });

export const deleteDrawMethod = endpoint({
  method: 'POST',
  path: '/api/wallet/del_draw_method',
  auth: 'user',
  realOnly: true,
  input: IdInput,
  output: z.null(),
  summary: 'Deletes one of the user’s receiving accounts',
  tags: ['withdraw'],
});

export const deleteDrawMethodBare = endpoint({ ...deleteDrawMethod, path: '/api/del_draw_method' });

// ---------------------------------------------------------------- withdraw

export const withdrawCurrencies = endpoint({
  method: 'GET',
  path: '/api/account/draw_symbol_list',
  auth: 'user',
  realOnly: true,
  input: WithdrawCurrencyListInput,
  output: z.array(WithdrawCurrencySchema),
  summary: 'Withdrawal currencies (type 1 coin, 2 bank) with fee terms and limits in USD',
  tags: ['withdraw'],
});

export const draw = endpoint({
  method: 'POST',
  path: '/api/account/draw',
  auth: 'user',
  realOnly: true,
  input: DrawInput,
  output: DrawResultSchema,
  summary:
    'Requests a withdrawal: the amount leaves the free balance at once, pending staff review; with two-factor sign-in on, `totp` is required',
  tags: ['withdraw'],
});

export const drawList = endpoint({
  method: 'GET',
  path: '/api/account/draw_list',
  auth: 'user',
  realOnly: true,
  input: DrawListInput,
  output: DrawPageSchema,
  summary: 'The user’s withdrawal records (type 1 coin, 2 bank; none for all), newest first',
  tags: ['withdraw'],
});

// ---------------------------------------------------------------- staff review (back office)

export const staffDeposits = endpoint({
  ...FINANCE,
  method: 'GET',
  path: '/api/admin/deposits',
  input: StaffDepositListInput,
  output: StaffDepositPageSchema,
  summary: 'Deposits for review (status 0 unchecked, 1 finished, 2 rejected, 3 invalid), with user and proof',
  tags: ['admin', 'deposit'],
});

export const approveDeposit = endpoint({
  ...FINANCE,
  method: 'POST',
  path: '/api/admin/deposits/approve',
  input: ApproveDepositInput,
  output: StaffDepositSchema,
  summary: 'Approves a deposit: credits the confirmed amount, converted to USD, exactly once',
  tags: ['admin', 'deposit'],
});

export const rejectDeposit = endpoint({
  ...FINANCE,
  method: 'POST',
  path: '/api/admin/deposits/reject',
  input: RejectInput,
  output: StaffDepositSchema,
  summary: 'Rejects a deposit with a remark the user sees',
  tags: ['admin', 'deposit'],
});

export const invalidateDeposit = endpoint({
  ...FINANCE,
  method: 'POST',
  path: '/api/admin/deposits/invalid',
  input: IdInput,
  output: StaffDepositSchema,
  summary: 'Marks a deposit invalid',
  tags: ['admin', 'deposit'],
});

export const staffWithdrawals = endpoint({
  ...FINANCE,
  method: 'GET',
  path: '/api/admin/withdrawals',
  input: StaffWithdrawalListInput,
  output: StaffWithdrawalPageSchema,
  summary: 'Withdrawals for review (status 0 pending, 1 paid, 2 rejected), with user and receiving account',
  tags: ['admin', 'withdraw'],
});

export const approveWithdrawal = endpoint({
  ...FINANCE,
  method: 'POST',
  path: '/api/admin/withdrawals/approve',
  input: ApproveWithdrawalInput,
  output: StaffWithdrawalSchema,
  summary: 'Marks a withdrawal paid, recording the transaction reference, exactly once',
  tags: ['admin', 'withdraw'],
});

export const rejectWithdrawal = endpoint({
  ...FINANCE,
  method: 'POST',
  path: '/api/admin/withdrawals/reject',
  input: RejectInput,
  output: StaffWithdrawalSchema,
  summary: 'Rejects a withdrawal with a remark; the amount returns to the user, exactly once',
  tags: ['admin', 'withdraw'],
});
