import { z } from 'zod';
import { Code } from './codes.ts';
import { type Endpoint, type HttpMethod, methodsOf } from './endpoint.ts';
import { allEndpoints, apiKeyScopeOf } from './endpoints/index.ts';
import { HTTP_STATUS_HEADER, HTTP_STATUS_STANDARD, standardStatusOf } from './http-status.ts';
import { CODE_MEANINGS, codesOf, standardStatusesOf } from './openapi-codes.ts';
import { DESCRIPTION, examplesOf, PARAMETERS, ref, REFUSAL, RESPONSES, SECURITY_SCHEMES, TAGS } from './openapi-components.ts';

/**
 * The OpenAPI document, built from the endpoint table alone (no network server, no copy kept by hand):
 * the server serves it on /api/docs and `npm run docs:openapi` writes it to docs/openapi.json.
 */
type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '0.1.0';

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

const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);

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
  const codes = codesOf(ep, Object.keys((named.input?.properties as Json | undefined) ?? {}));
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
