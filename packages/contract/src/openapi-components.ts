import { Code } from './codes.ts';
import { HTTP_STATUS_HEADER, HTTP_STATUS_STANDARD } from './http-status.ts';
import { LANG_CODES } from './languages.ts';

/** The shared parts of the OpenAPI document: tags, security schemes, headers, refusal answers and the overview. */
type Json = Record<string, unknown>;

export const TAGS: Record<string, string> = {
  account: 'The trader: registration, sign-in, profile, security, sessions and API keys.',
  reference: 'Reference data open to anyone: area codes, languages, settings the web app needs.',
  market: 'Symbols, categories, quotes history (candles) and the trader’s favourites.',
  trading: 'Orders and positions: submit, modify, close, reverse; balances and statements.',
  alerts: 'Price alerts of the trader.',
  deposit: 'Deposits: channels, submissions and their history.',
  withdraw: 'Withdrawals: methods, requests and their history.',
  identity: 'Identity verification (KYC) of the trader.',
  files: 'Uploads of images and documents.',
  content: 'News, notices and pages the operator publishes.',
  social: 'Ranking and social features.',
  partners: 'Introducing brokers: applications, clients, commissions and payouts of partners.',
  support: 'Feedback and the support chat.',
  admin: 'Back office: staff sign-in and every operator screen (staff session).',
  test: 'Test controls, only with TRADING_TEST_CONTROLS=1 outside production.',
};

export const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Any answer but success: the code says why, `data` is null unless the code's meaning gives it (a requote's price). */
export const REFUSAL: Json = {
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'integer', description: 'Business code other than 1; see the operation’s list.', example: Code.SESSION_EXPIRED },
    msg: { type: 'string', description: 'Why, in the language of the `lang` header (English without it).' },
    data: { description: 'null, or what the client needs to act on the refusal.' },
  },
};

const STANDARD_ONLY = `Only with \`${HTTP_STATUS_HEADER}: ${HTTP_STATUS_STANDARD}\` (otherwise HTTP 200 with the same envelope): `;
const refusal = (description: string, headers?: Json): Json => ({
  description: STANDARD_ONLY + description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('schemas', 'Refusal') } },
});
export const RESPONSES: Json = {
  Status400: refusal('a business rule refused the call; `code` says which (0, 2001, 2002, 1022, 1023) and `msg` why.'),
  Status401: refusal('not signed in: no, an unknown or an expired session token or API key (code 999).', {
    'WWW-Authenticate': { description: 'The schemes the API accepts.', schema: { type: 'string', example: 'Bearer, ApiKey' } },
  }),
  Status403: refusal('not allowed: a staff role, an API key’s scope or address list (1003), or a demo account (1010).'),
  Status404: refusal('the record the call names does not exist (1004).'),
  Status409: refusal('a conflict: the thing already exists or the step was already done (0), or the price moved (2003).'),
  Status422: refusal('a parameter is missing or invalid (1001).'),
  Status429: refusal('too many requests (1029).', {
    'Retry-After': { description: 'Seconds to wait before calling again.', schema: { type: 'integer', example: 30 } },
  }),
};

export const PARAMETERS: Json = {
  Lang: {
    name: 'lang',
    in: 'header',
    required: false,
    description: 'The language of `msg` (tw is read as hk); English when not sent.',
    schema: { type: 'string', enum: [...LANG_CODES, 'tw'], example: 'en' },
  },
  HttpStatus: {
    name: HTTP_STATUS_HEADER,
    in: 'header',
    required: false,
    description: `\`${HTTP_STATUS_STANDARD}\`: answer a refusal with its HTTP status (401, 403, 404, 409, 422, 429 with Retry-After, 400 for other rules) instead of HTTP 200; the body is the same envelope.`,
    schema: { type: 'string', enum: [HTTP_STATUS_STANDARD] },
  },
};

/** Refusals as a client sees them (English `msg`). */
const EXAMPLES: Record<number, { summary: string; value: Json }> = {
  [Code.SESSION_EXPIRED]: {
    summary: 'Not signed in',
    value: { code: Code.SESSION_EXPIRED, msg: 'Your session has expired. Please log in again.', data: null },
  },
  [Code.INVALID_PARAM]: {
    summary: 'Invalid parameter',
    value: { code: Code.INVALID_PARAM, msg: 'Invalid parameter: symbol_id', data: null },
  },
  [Code.RATE_LIMITED]: {
    summary: 'Rate limited',
    value: { code: Code.RATE_LIMITED, msg: 'Too many requests. Please wait a moment and try again.', data: null },
  },
};
export const examplesOf = (codes: number[]): Json =>
  Object.fromEntries(codes.filter((c) => EXAMPLES[c]).map((c) => [`code${c}`, EXAMPLES[c]]));

export const SECURITY_SCHEMES: Json = {
  session: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'A trader’s session token as sign-in answered it, sent as the whole `authorization` header (or `Bearer <token>`).',
  },
  staffSession: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'A staff session token from the back office sign-in, in the `authorization` header.',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'An API key: `Authorization: ApiKey <key>`. It reaches only the calls of its scopes (read, trade).',
  },
  apiKeyId: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Signed call: the key id.' },
  apiKeyTimestamp: { type: 'apiKey', in: 'header', name: 'X-API-Timestamp', description: 'Signed call: the time in ms, at most 60 s old.' },
  apiKeySignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Signature',
    description: 'Signed call: hex HMAC-SHA256 with the key’s secret over timestamp + method + path with query + body; accepted once.',
  },
};

export const DESCRIPTION = [
  'Every answer is the envelope `{code, msg, data}`: `code` 1 is success, any other code is a refusal whose meaning each operation lists (999: not signed in).',
  '',
  '**HTTP statuses: two modes.** By default every answer is HTTP 200, refusals included, as the web app and existing clients expect. A client that sends `X-HTTP-Status: standard` gets the same body with a standard status mapped from `code`: 401 for 999 (not signed in, bad API key), 403 for 1003 and 1010, 404 for 1004, 409 for a duplicate or a step already done and for 2003 (requote), 422 for 1001, 429 with `Retry-After` for 1029 (rate limit), 400 for any other refusal; 200 on success. Server faults are 500 (or 503 with `Retry-After`) in both modes, and a path that does not exist is 404 in both.',
  '',
  'Send `lang` (en, jp, kr, hk, th, vn, fr, de, ru, spa, pt, it, ar, tr, id, my, hi, cs) for `msg` in that language; without it `msg` is English (the web app always sends its language).',
  '',
  'Parameters may be sent in the query string or the body (form or JSON) on any method a call accepts.',
  '',
  'Bots call with an API key: `Authorization: ApiKey <key>`, or signed with `X-API-Key`, `X-API-Timestamp` and `X-API-Signature`.',
].join('\n');
