import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  AccountLogSchema,
  AlertAddInput,
  AlertListSchema,
  AlertSchema,
  BalanceSchema,
  BatchCloseInput,
  BatchCloseSchema,
  CloseInput,
  DealInput,
  DealSchema,
  DemoAccountSchema,
  ForexDetailSchema,
  MyDealInput,
  MyDealSchema,
  NoticeInput,
  NoticePageSchema,
  OrderIdInput,
  OrderSchema,
  PageInput,
  RiskWarningSchema,
  SetStopPriceInput,
  SubmitInput,
  TrailingInput,
} from '../schemas/trading.ts';
import { StatementInput, StatementSchema } from '../schemas/statement.ts';

/** Existing clients send the trading calls as GET query strings, forms as POST (spec section 7). */
const GET_POST = ['GET', 'POST'] as const;

/** The order calls of spec section 7. */
export const submit = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/submit',
  auth: 'user',
  input: SubmitInput,
  output: OrderSchema,
  summary: 'Places a market order (status 1) or a pending order at target_price (status 0)',
  tags: ['trading'],
});

export const myDeal = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/my_deal',
  auth: 'user',
  input: MyDealInput,
  output: MyDealSchema,
  summary: 'The order list: status 1 holding, 0 pending, 3 history (closed and cancelled)',
  tags: ['trading'],
});

export const close = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/close',
  auth: 'user',
  input: CloseInput,
  output: OrderSchema,
  summary:
    'Closes an open position at the current price; with cont, closes that many lots (the answer is the closed part, a new order id; the rest stays open under its id with its TP and SL)',
  tags: ['trading'],
});

export const cancelTrade = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/cancel_trade',
  auth: 'user',
  input: OrderIdInput,
  output: OrderSchema,
  summary: 'Cancels a pending order and refunds its reservation',
  tags: ['trading'],
});

export const setStopPrice = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/set_stop_price',
  auth: 'user',
  input: SetStopPriceInput,
  output: OrderSchema,
  summary: 'Sets take-profit and stop-loss of an open or pending order; 0 or empty removes one',
  tags: ['trading'],
});

export const setTrailing = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/set_trailing',
  auth: 'user',
  input: TrailingInput,
  output: OrderSchema,
  summary: 'Sets a trailing stop on an open position: its stop-loss follows the price at `points`, on the server; 0 removes it',
  tags: ['trading'],
});

export const batchCloseByType = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/batch_Close_by_type',
  auth: 'user',
  input: BatchCloseInput,
  output: BatchCloseSchema,
  summary:
    'Closes all open positions (type 0), all buys (1) or all sells (2), of one symbol (forex_id) or of all; each closes exactly once',
  tags: ['trading'],
});

export const reverse = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/reverse',
  auth: 'user',
  input: OrderIdInput,
  output: OrderSchema,
  summary: 'Closes an open position and opens the same lots the other way, in one transaction; the answer is the new position',
  tags: ['trading'],
});

export const deal = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/deal',
  auth: 'user',
  input: DealInput,
  output: DealSchema,
  summary: 'The trade screen of one symbol: balance, lot limits, leverages, default slippage tolerance, open positions and pending orders',
  tags: ['trading'],
});

export const notices = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/notices',
  auth: 'user',
  input: NoticeInput,
  output: NoticePageSchema,
  summary:
    'What the trader was told about, newest first: closes and fills they did not make (take-profit, stop-loss, stop-out, staff close, closes by copy trading, pending fills and cancellations), margin calls, and account events (deposit approved or rejected, withdrawal paid or rejected, identity verified or rejected, support reply, a copy subscription fee unpaid)',
  tags: ['trading'],
});

/** Price alerts: set from the trade screen, kept on the server, fired once (push and, if chosen, email). */
export const alerts = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/alerts',
  auth: 'user',
  input: PageInput,
  output: AlertListSchema,
  summary: "The trader's price alerts, waiting ones first, then fired ones, newest first",
  tags: ['alerts'],
});

export const alertAdd = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/alert/add',
  auth: 'user',
  input: AlertAddInput,
  output: AlertSchema,
  summary: 'Sets a price alert on the bid (or ask) of a symbol; it fires once when the price reaches it',
  tags: ['alerts'],
});

export const alertDelete = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/alert/delete',
  auth: 'user',
  input: OrderIdInput,
  output: z.null(),
  summary: "Removes one of the trader's price alerts",
  tags: ['alerts'],
});

/** Balance, account figures, account log and demo accounts. */
export const getBalance = endpoint({
  method: GET_POST,
  path: '/v1/api/main/wallet/getBalance',
  auth: 'user',
  output: BalanceSchema,
  summary: 'Free balance and locked margin (USD)',
  tags: ['account'],
});

export const forexDetail = endpoint({
  method: GET_POST,
  path: '/v1/api/main/account/forexDetail',
  auth: 'user',
  output: ForexDetailSchema,
  summary: 'Account figures: balance, lock_balance, equity, floating profit, risk rate, prepayment ratio, available prepayment',
  tags: ['account'],
});

export const accountLog = endpoint({
  method: GET_POST,
  path: '/v1/api/main/accountLog/forexChange',
  auth: 'user',
  input: PageInput,
  output: AccountLogSchema,
  summary: 'Account log: every movement of the balance, newest first, with a translated memo',
  tags: ['account'],
});

/** Account statement: the log and closed positions of a date range, with opening and closing balance and totals. */
export const statement = endpoint({
  method: GET_POST,
  path: '/v1/api/main/account/statement',
  auth: 'user',
  input: StatementInput,
  output: StatementSchema,
  summary:
    "Account statement of the session's account for start..end (Unix seconds, or UTC dates YYYY-MM-DD with end included; at most 366 days): balance changes and closed positions oldest first, opening and closing balance (cash plus margin in use) and totals",
  tags: ['account'],
});

export const createDemoAccount = endpoint({
  method: GET_POST,
  path: '/api/user/createAccountDemoForU',
  auth: 'none',
  output: DemoAccountSchema,
  summary: 'Creates a demo account with the initial demo balance; log in with its demo_id',
  tags: ['account'],
});

export const resetDemoAccount = endpoint({
  method: GET_POST,
  path: '/v1/api/main/user/resetForexDemoAccount',
  auth: 'user',
  output: BalanceSchema.omit({ currency: true }),
  summary: 'Demo accounts only: closes everything and restores the initial balance',
  tags: ['account'],
});

export const riskWarning = endpoint({
  method: 'GET',
  path: '/api/risk_warning',
  auth: 'optional',
  output: RiskWarningSchema,
  summary:
    "The risk warning of the caller's account group's regulatory profile (ESMA retail: the share of retail accounts that lost money trading over the last 12 months, from the ledger: closed positions' profit, trade fees and swaps; professional-profile groups and demo accounts excluded), with the date it was computed; `show` 0 when the group's profile requires none. Recomputed daily",
  tags: ['trading'],
});
