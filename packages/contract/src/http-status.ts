import { Code } from './codes.ts';

/**
 * Opt-in HTTP statuses. By default every answer is HTTP 200 with the `{code, msg, data}` envelope, as the
 * spec's clients expect. A client that sends `X-HTTP-Status: standard` gets the same envelope with an HTTP
 * status mapped from the business code, so generic HTTP tooling (retries, proxies, SDKs) sees failures.
 */
export const HTTP_STATUS_HEADER = 'X-HTTP-Status';
export const HTTP_STATUS_STANDARD = 'standard';

/** The business codes with their own HTTP status in the standard mode. */
export const STANDARD_STATUS: Readonly<Record<number, number>> = {
  [Code.SUCCESS]: 200,
  [Code.SESSION_EXPIRED]: 401,
  [Code.FORBIDDEN]: 403,
  [Code.DEMO_BLOCKED]: 403,
  [Code.NOT_FOUND]: 404,
  [Code.REQUOTE]: 409,
  [Code.INVALID_PARAM]: 422,
  [Code.RATE_LIMITED]: 429,
};

/** A refusal whose message key says the thing already exists or was already done: a conflict. */
const CONFLICT_KEY = /(_exists|_taken|_reused)$|already_/;

/**
 * The HTTP status of an answer in the standard mode: the code's own (401, 403, 404, 409, 422, 429), 409
 * for a duplicate or an already-done step, 400 for any other business refusal (its code says which).
 */
export function standardStatusOf(code: number, messageKey = ''): number {
  const own = STANDARD_STATUS[code];
  if (own) return own;
  if (CONFLICT_KEY.test(messageKey)) return 409;
  return 400;
}
