import { z } from 'zod';
import { Code, LOGIN_CAPTCHA_REQUIRED, LOGIN_TOTP_REQUIRED } from './codes.ts';
import { type Endpoint, type HttpMethod, methodsOf } from './endpoint.ts';
import { allEndpoints, apiKeyScopeOf } from './endpoints/index.ts';
import { HTTP_STATUS_HEADER, HTTP_STATUS_STANDARD, standardStatusOf } from './http-status.ts';
import { LANG_CODES } from './languages.ts';
import * as auth from './endpoints/auth.ts';
import * as funding from './endpoints/funding.ts';
import * as trading from './endpoints/trading.ts';

/**
 * The OpenAPI document, built from the endpoint table alone (no network server, no copy kept by hand):
 * the server serves it on /api/docs and `npm run docs:openapi` writes it to docs/openapi.json.
 */
type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '0.1.0';

const TAGS: Record<string, string> = {
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
  support: 'Feedback and the support chat.',
  admin: 'Back office: staff sign-in and every operator screen (staff session).',
  test: 'Test controls, only with TRADING_TEST_CONTROLS=1 outside production.',
};

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

/** An integer above 0 is an integer from 1: the plain bound reads the same in every OpenAPI tool (3.0's boolean exclusive bounds do not). */
function plainIntegerBounds(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const n = node as Json;
  if (n.type === 'integer' && n.exclusiveMinimum === true && typeof n.minimum === 'number') {
    n.minimum += 1;
    delete n.exclusiveMinimum;
  }
  if (n.type === 'integer' && n.exclusiveMaximum === true && typeof n.maximum === 'number') {
    n.maximum -= 1;
    delete n.exclusiveMaximum;
  }
  for (const value of Object.values(n)) plainIntegerBounds(value);
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  try {
    const out = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json;
    delete out.$schema;
    plainIntegerBounds(out);
    return out;
  } catch {
    return { type: 'object' };
  }
};

const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);

const namesAnId = (name: string) => name === 'id' || name === 'ids' || /_ids?$/.test(name) || /Ids?$/.test(name);

/** The business codes a call may answer, from its declaration. */
export function codesOf(ep: Endpoint): number[] {
  const codes = new Set<number>([Code.SUCCESS]);
  const changes = methodsOf(ep).some((m) => m !== 'GET') || ep.input;
  if (changes) codes.add(Code.FAIL);
  if (ep.input) codes.add(Code.INVALID_PARAM);
  const props = ep.input ? Object.keys((jsonSchema(ep.input, 'input').properties as Json | undefined) ?? {}) : [];
  if (/:\w+/.test(ep.path) || props.some(namesAnId)) codes.add(Code.NOT_FOUND);
  if (ep.auth === 'user' || ep.auth === 'staff') codes.add(Code.SESSION_EXPIRED);
  if (ep.auth === 'user' || ep.auth === 'optional' || ep.roles?.length) codes.add(Code.FORBIDDEN);
  if (ep.realOnly) codes.add(Code.DEMO_BLOCKED);
  for (const c of EXTRA_CODES.get(ep) ?? []) codes.add(c);
  codes.add(Code.RATE_LIMITED);
  return [...codes].sort((a, b) => a - b);
}

/** A stable operationId from the method and the path: `GET /v1/api/forex/kline` is `getV1ForexKline`. */
export function operationIdOf(method: HttpMethod, path: string): string {
  const words = path
    .split('/')
    .filter((s) => s && s !== 'api')
    .flatMap((s) => (s.startsWith(':') ? ['by', s.slice(1)] : s.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map(capital).join('');
}

function securityOf(ep: Endpoint): Json[] {
  const key = apiKeyScopeOf(ep) ? [{ apiKey: [] }, { apiKeyId: [], apiKeyTimestamp: [], apiKeySignature: [] }] : [];
  if (ep.auth === 'staff') return [{ staffSession: [] }];
  if (ep.auth === 'user') return [{ session: [] }, ...key];
  if (ep.auth === 'optional') return [{}, { session: [] }, ...key];
  return [];
}

function describe(ep: Endpoint, codes: number[]): string {
  const who = {
    none: 'anyone.',
    optional: 'anyone; a trader’s session is used when sent.',
    user: 'a trader’s session.',
    staff: `a staff session${ep.roles?.length ? ` with a role among ${ep.roles.join(', ')} (admin always passes)` : ''}.`,
  }[ep.auth];
  const scope = apiKeyScopeOf(ep);
  const lines = [
    ep.summary + '.',
    '',
    `Who may call: ${who}${ep.realOnly ? ' Real accounts only.' : ''}`,
    scope ? `API keys with the \`${scope}\` scope may call it.` : ep.auth === 'user' ? 'No API key may call it.' : '',
    ep.rateLimit ? `Rate limit: ${ep.rateLimit.max} calls per ${(ep.rateLimit.timeWindow ?? 60_000) / 1000} s per address.` : '',
    '',
    'Business codes (`code` of the envelope):',
    ...codes.map((c) => `- \`${c}\`: ${CODE_MEANINGS[c]}`),
  ];
  return lines.filter((l, i) => l !== '' || lines[i - 1] !== '').join('\n');
}

function envelopeOf(data: Json): Json {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: {
      code: { type: 'integer', description: 'Business code: 1 success; see the operation’s list.', example: 1 },
      msg: { type: 'string', description: 'What happened, in the language of the `lang` header (English without it).' },
      data,
    },
  };
}

/** Any answer but success: the code says why, `data` is null unless the code's meaning gives it (a requote's price). */
const REFUSAL: Json = {
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'integer', description: 'Business code other than 1; see the operation’s list.', example: Code.SESSION_EXPIRED },
    msg: { type: 'string', description: 'Why, in the language of the `lang` header (English without it).' },
    data: { description: 'null, or what the client needs to act on the refusal.' },
  },
};

/** The HTTP statuses a call may answer in the standard mode besides 200. */
function standardStatusesOf(codes: number[], method: HttpMethod): number[] {
  const statuses = new Set(codes.filter((c) => c !== Code.SUCCESS).map((c) => standardStatusOf(c)));
  // A change refused by a rule may be a duplicate or a step already done.
  if (codes.includes(Code.FAIL) && method !== 'GET') statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

const STANDARD_ONLY = `Only with \`${HTTP_STATUS_HEADER}: ${HTTP_STATUS_STANDARD}\` (otherwise HTTP 200 with the same envelope): `;
const refusal = (description: string, headers?: Json): Json => ({
  description: STANDARD_ONLY + description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('schemas', 'Refusal') } },
});
const RESPONSES: Json = {
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

const PARAMETERS: Json = {
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
const examplesOf = (codes: number[]): Json => Object.fromEntries(codes.filter((c) => EXAMPLES[c]).map((c) => [`code${c}`, EXAMPLES[c]]));

function parametersOf(input: Json, path: string): Json[] {
  const required = new Set((input.required as string[] | undefined) ?? []);
  const pathNames = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const pathParams = pathNames.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const props = (input.properties as Record<string, Json> | undefined) ?? {};
  const query = Object.entries(props)
    .filter(([name]) => !pathNames.includes(name))
    .map(([name, schema]) => {
      const { description, ...rest } = schema;
      return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
    });
  return [...pathParams, ...query];
}

/** Schemas of one endpoint, named after it in the table (`trading.submit`: TradingSubmitInput, TradingSubmitData). */
interface Named {
  base: string;
  input: Json | null;
}

function operationOf(ep: Endpoint, method: HttpMethod, named: Named): Json {
  const codes = codesOf(ep);
  const input = named.input;
  const withBody = method !== 'GET' && method !== 'DELETE';
  const bodyTypes = ep.body === 'multipart' ? ['multipart/form-data'] : ['application/x-www-form-urlencoded', 'application/json'];
  return {
    operationId: operationIdOf(method, ep.path),
    summary: ep.summary,
    description: describe(ep, codes),
    tags: [...ep.tags],
    security: securityOf(ep),
    parameters: [ref('parameters', 'Lang'), ref('parameters', 'HttpStatus'), ...parametersOf(input && !withBody ? input : {}, ep.path)],
    ...(input && withBody
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(bodyTypes.map((type) => [type, { schema: ref('schemas', `${named.base}Input`) }])),
          },
        }
      : {}),
    responses: {
      '200': {
        description: `The envelope: \`code\` 1 with \`data\`, or (by default, without \`${HTTP_STATUS_HEADER}: ${HTTP_STATUS_STANDARD}\`) one of the business codes ${codes.filter((c) => c !== Code.SUCCESS).join(', ')} with \`data\` null unless the code says otherwise.`,
        content: {
          'application/json': {
            schema: { anyOf: [envelopeOf(ref('schemas', `${named.base}Data`)), ref('schemas', 'Refusal')] },
            examples: examplesOf(codes),
          },
        },
      },
      ...Object.fromEntries(standardStatusesOf(codes, method).map((status) => [String(status), ref('responses', `Status${status}`)])),
    },
    'x-codes': codes.map((code) => ({ code, meaning: CODE_MEANINGS[code], standardStatus: standardStatusOf(code) })),
  };
}

const SECURITY_SCHEMES: Json = {
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

const DESCRIPTION = [
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

export interface OpenApiOptions {
  /** Include the test controls (a test server started with TRADING_TEST_CONTROLS). */
  includeTest?: boolean;
}

/** The OpenAPI 3.0 document of every enveloped call of the endpoint table. */
export function buildOpenApiDocument(opts: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  const usedTags = new Set<string>();
  for (const { module, name, endpoint: ep } of allEndpoints()) {
    if (ep.raw || (!opts.includeTest && ep.tags.includes('test'))) continue;
    const path = ep.path.replace(/:(\w+)/g, '{$1}');
    const base = capital(module) + capital(name);
    const input = ep.input ? jsonSchema(ep.input, 'input') : null;
    // GET and DELETE take the input as query parameters; a body of another method refers to it by name.
    if (input && methodsOf(ep).some((m) => m !== 'GET' && m !== 'DELETE')) schemas[`${base}Input`] = input;
    schemas[`${base}Data`] = jsonSchema(ep.output, 'output');
    for (const method of methodsOf(ep)) {
      (paths[path] ??= {})[method.toLowerCase()] = operationOf(ep, method, { base, input });
    }
    for (const tag of ep.tags) usedTags.add(tag);
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Trading platform API', version: OPENAPI_VERSION, description: DESCRIPTION },
    servers: [
      {
        url: '/',
        description: 'The host serving this document (/api/docs); the web app calls the page host with its subdomain replaced by `api`.',
      },
    ],
    tags: Object.keys(TAGS)
      .filter((name) => usedTags.has(name))
      .map((name) => ({ name, description: TAGS[name] })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      parameters: PARAMETERS,
      responses: RESPONSES,
      schemas: { Refusal: REFUSAL, ...Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) },
    },
  };
}

/** The document as committed in docs/openapi.json: two-space JSON with a final newline. */
export const openApiText = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
