import { Code } from '@tp/contract/codes';
import type { MessageParams } from './i18n.ts';

/**
 * A business refusal: answered as HTTP 200 `{code, msg}` where msg is the translation of `key`.
 * Anything else thrown is a fault: HTTP 500 with a generic message, details only in the log.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: string,
    readonly params: MessageParams = {},
    /** What the client needs to act on the refusal (rarely: the TOTP setup of a first sign-in). */
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

export const fail = (key: string, params?: MessageParams) => new AppError(Code.FAIL, key, params);
export const invalid = (key: string, params?: MessageParams) => new AppError(Code.INVALID_PARAM, key, params);
export const notFound = (key = 'not_found') => new AppError(Code.NOT_FOUND, key);
export const forbidden = (key = 'forbidden') => new AppError(Code.FORBIDDEN, key);
export const sessionExpired = () => new AppError(Code.SESSION_EXPIRED, 'session_expired');
export const demoBlocked = () => new AppError(Code.DEMO_BLOCKED, 'only_real_account');
export const rateLimited = () => new AppError(Code.RATE_LIMITED, 'too_many_requests');

/**
 * A value the database refused as data (SQLSTATE class 22: out of range, bad encoding, numeric
 * overflow): the client sent it, so it is a refused request, not a fault. Drizzle wraps the driver's error.
 */
export function isDataException(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}
