import { Code, LOGIN_CAPTCHA_REQUIRED, LOGIN_TOTP_REQUIRED } from './codes.ts';
import { type Endpoint, type HttpMethod, methodsOf } from './endpoint.ts';
import * as auth from './endpoints/auth.ts';
import * as funding from './endpoints/funding.ts';
import * as trading from './endpoints/trading.ts';
import { standardStatusOf } from './http-status.ts';

// The business codes each call of the OpenAPI document may answer, and the HTTP statuses of the standard mode.

/** What each business code means, as a client reads the envelope's `code`. */
export const CODE_MEANINGS: Record<number, string> = {
  [Code.SUCCESS]: 'Success: `data` holds the answer.',
  [Code.FAIL]: 'Refused by a business rule; `msg` says why in the request’s language.',
  [Code.INVALID_PARAM]: 'A parameter is missing or invalid; `msg` names it.',
  [Code.FORBIDDEN]: 'Not allowed: a staff role, an API key’s scope or its address list refuses the call.',
  [Code.NOT_FOUND]: 'The record the call names does not exist (or is not the caller’s).',
  [Code.DEMO_BLOCKED]: 'Only a real account may do this; the session is a demo account.',
  [Code.RATE_LIMITED]: 'Too many requests from this address or API key; retry later.',
  [LOGIN_CAPTCHA_REQUIRED]: 'A captcha is needed first (failed sign-ins on the account).',
  [LOGIN_TOTP_REQUIRED]: 'The password is right; send the account’s two-factor code (`totp`).',
  [Code.MARKET_CLOSED]: 'The market is closed or its quote is not live.',
  [Code.INSUFFICIENT_MARGIN]: 'Not enough free margin (orders) or balance (withdrawals).',
  [Code.REQUOTE]: 'The price moved past the slippage tolerance; `data.price` is the new price.',
  [Code.SESSION_EXPIRED]: 'Not signed in: the session token or API key is missing, unknown, expired or revoked.',
};

/** Codes some calls answer beyond those their declaration implies (auth, input, roles). */
const ORDER_CODES = [Code.MARKET_CLOSED, Code.INSUFFICIENT_MARGIN, Code.REQUOTE];
const EXTRA_CODES = new Map<Endpoint, readonly number[]>([
  [trading.submit, ORDER_CODES],
  [trading.reverse, ORDER_CODES],
  [trading.close, [Code.MARKET_CLOSED]],
  [trading.batchCloseByType, [Code.MARKET_CLOSED]],
  [auth.login, [LOGIN_CAPTCHA_REQUIRED, LOGIN_TOTP_REQUIRED]],
  [funding.draw, [Code.INSUFFICIENT_MARGIN]],
]);

const namesAnId = (name: string) => name === 'id' || name === 'ids' || /_ids?$/.test(name) || /Ids?$/.test(name);

/** The business codes a call may answer, from its declaration. */
export function codesOf(ep: Endpoint, inputFields: readonly string[]): number[] {
  const codes = new Set<number>([Code.SUCCESS]);
  const changes = methodsOf(ep).some((m) => m !== 'GET') || ep.input;
  if (changes) codes.add(Code.FAIL);
  if (ep.input) codes.add(Code.INVALID_PARAM);
  if (/:\w+/.test(ep.path) || inputFields.some(namesAnId)) codes.add(Code.NOT_FOUND);
  if (ep.auth === 'user' || ep.auth === 'staff') codes.add(Code.SESSION_EXPIRED);
  if (ep.auth === 'user' || ep.auth === 'optional' || ep.roles?.length) codes.add(Code.FORBIDDEN);
  if (ep.realOnly) codes.add(Code.DEMO_BLOCKED);
  for (const c of EXTRA_CODES.get(ep) ?? []) codes.add(c);
  codes.add(Code.RATE_LIMITED);
  return [...codes].sort((a, b) => a - b);
}

/** The HTTP statuses a call may answer in the standard mode besides 200. */
export function standardStatusesOf(codes: number[], method: HttpMethod): number[] {
  const statuses = new Set(codes.filter((c) => c !== Code.SUCCESS).map((c) => standardStatusOf(c)));
  // A change refused by a rule may be a duplicate or a step already done.
  if (codes.includes(Code.FAIL) && method !== 'GET') statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}
