/** Business result codes carried in the `code` field of every answer. */
export const Code = {
  SUCCESS: 1,
  /** Generic refusal of a business rule; `msg` says why. */
  FAIL: 0,
  INVALID_PARAM: 1001,
  NOT_FOUND: 1004,
  FORBIDDEN: 1003,
  DEMO_BLOCKED: 1010,
  RATE_LIMITED: 1029,
  MARKET_CLOSED: 2001,
  INSUFFICIENT_MARGIN: 2002,
  /** The market moved past the trader's slippage tolerance between the quote they saw and the fill: `data.price` is the new price. */
  REQUOTE: 2003,
  SESSION_EXPIRED: 999,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** Answer code of loginForU: a captcha is needed first (failed logins on the account); nothing else was checked. */
export const LOGIN_CAPTCHA_REQUIRED = 1022;
/** Answer code of loginForU: the password is right and the account's two-factor code is needed (send `totp`). */
export const LOGIN_TOTP_REQUIRED = 1023;

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** Paged list shape: `data: {data: [...], total}` (PROTOCOL.md). */
export interface Page<T> {
  data: T[];
  total: number;
}
