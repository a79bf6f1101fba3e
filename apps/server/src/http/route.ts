import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { z } from 'zod';
import { Code, type Envelope } from '@tp/contract/codes';
import type { Endpoint } from '@tp/contract/endpoint';
import { apiKeyScopeOf } from '@tp/contract/endpoints/index';
import { API_DEFAULT_LANG, type LangCode, normalizeLang } from '@tp/contract/languages';
import { hasControlChars, PROTOTYPE_KEYS } from '@tp/contract/schemas/fields';
import type { AppContext, AuthStaff, AuthUser } from '../context.ts';
import { apiKeyOf, type RequestApiKey } from './api-key-credentials.ts';
import { AppError, demoBlocked, forbidden, invalid, sessionExpired } from './errors.ts';
import { t } from './i18n.ts';
import { outputChecker, outputSerializer } from './output.ts';

export type AuthMode = 'none' | 'optional' | 'user' | 'staff';

export interface HandlerCtx<I, A extends AuthMode> {
  input: I;
  lang: LangCode;
  user: A extends 'user' ? AuthUser : A extends 'optional' ? AuthUser | null : null;
  staff: A extends 'staff' ? AuthStaff : null;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDef<S extends z.ZodType, A extends AuthMode> {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  /** Parameters from the query string and the body together (existing clients send either). */
  input?: S;
  auth?: A;
  /** Demo users are refused with the spec's "only real account" message. */
  realOnly?: boolean;
  /** Staff roles allowed (any of); 'admin' is always allowed. */
  roles?: string[];
  summary: string;
  tags: string[];
  /** Schema of `data` in a successful answer, for the OpenAPI page. */
  response?: z.ZodType;
  /** Per-route rate limit (requests per minute per IP). */
  rateLimit?: { max: number; timeWindow?: number };
  /** The answer is not an enveloped JSON (an image, a file): the handler sends it. */
  raw?: boolean;
  /** What an API key needs to call this route (trade includes read); null or absent: no key may. */
  apiKeyScope?: 'read' | 'trade' | null;
  handler(ctx: HandlerCtx<z.infer<S>, A>): Promise<unknown> | unknown;
}

export const ok = <T>(lang: string | undefined, data: T): Envelope<T> => ({ code: Code.SUCCESS, msg: t(lang, 'success'), data });

/** The answer's language: the `lang` header as the spec reads it (tw is hk, an unknown code hk), English when none is sent. */
export const langOf = (req: FastifyRequest): LangCode => {
  const sent = req.headers.lang;
  return typeof sent === 'string' && sent.trim() ? normalizeLang(sent) : API_DEFAULT_LANG;
};

export function tokenOf(req: FastifyRequest): string | null {
  const raw = req.headers.authorization;
  if (!raw) return null;
  const token = raw.startsWith('Bearer ') ? raw.slice(7) : raw;
  return token.trim() || null;
}

/** Session resolvers, set by the auth module (users) and the admin module (staff). */
export interface Authenticators {
  user(token: string): Promise<AuthUser | null>;
  staff(token: string): Promise<AuthStaff | null>;
  /** The user an API key acts as; throws the refusal when the key is not accepted. */
  apiKey?(credentials: RequestApiKey, ip: string | undefined): Promise<AuthUser>;
}
const authenticators: { current: Authenticators | null } = { current: null };
export const setAuthenticators = (a: Authenticators) => {
  authenticators.current = a;
};

function fieldOf(issue: z.core.$ZodIssue): string {
  return issue.path.length ? issue.path.join('.') : issue.message;
}

/** Every route declared for an app context: the route-fuzzing test walks them. */
const declared = new WeakMap<AppContext, RouteDef<z.ZodType, AuthMode>[]>();
export const declaredRoutes = (ctx: AppContext): readonly RouteDef<z.ZodType, AuthMode>[] => declared.get(ctx) ?? [];

/**
 * The first input key or text value no field may hold, whatever its schema says: a prototype key,
 * or text with NUL or another control character (PostgreSQL refuses NUL in text).
 */
export function unsafeInputField(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return hasControlChars(value) ? path || 'input' : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (PROTOTYPE_KEYS.includes(key) || hasControlChars(key)) return at;
    const found = unsafeInputField(inner, at);
    if (found) return found;
  }
  return null;
}

/** Declares one call: one zod schema validates it (the OpenAPI document is built from the endpoint table). */
function defineRoute<S extends z.ZodType = z.ZodObject<{}>, A extends AuthMode = 'none'>(
  app: FastifyInstance,
  ctx: AppContext,
  def: RouteDef<S, A>,
): void {
  declared.set(ctx, [...declaredRoutes(ctx), def as unknown as RouteDef<z.ZodType, AuthMode>]);
  const methods = Array.isArray(def.method) ? def.method : [def.method];
  // The answer is serialized from the output schema (fields it does not declare are never sent; one it
  // requires and the handler misses is an error), and checked strictly where CHECK_RESPONSES is on (tests).
  const serialize = def.response && !def.raw ? outputSerializer(def.response) : null;
  const check =
    def.response && !def.raw && (ctx.config.CHECK_RESPONSES ?? ctx.config.NODE_ENV === 'test') ? outputChecker(def.response) : null;
  app.route({
    method: methods,
    url: def.url,
    config: def.rateLimit ? { rateLimit: def.rateLimit } : {},
    handler: async (req, reply) => {
      const lang = langOf(req);
      let user: AuthUser | null = null;
      let staff: AuthStaff | null = null;
      const token = tokenOf(req);
      const auth = authenticators.current;
      const key = def.auth === 'user' || def.auth === 'optional' ? apiKeyOf(req) : null;
      if (key) {
        // An API key acts as its user on the routes its scope lists, decided on the matched route.
        if (!auth?.apiKey) throw sessionExpired();
        user = await auth.apiKey(key, req.ip);
        const need = def.apiKeyScope ?? null;
        if (!need) throw forbidden('api_key_not_allowed');
        if (need === 'trade' && !user.apiKey?.scopes.includes('trade')) throw forbidden('api_key_scope');
        if (def.realOnly && user.isDemo) throw demoBlocked();
      } else if (def.auth === 'user' || def.auth === 'optional') {
        user = token && auth ? await auth.user(token) : null;
        if (!user && def.auth === 'user') throw sessionExpired();
        if (user && def.realOnly && user.isDemo) throw demoBlocked();
      } else if (def.auth === 'staff') {
        staff = token && auth ? await auth.staff(token) : null;
        if (!staff) throw sessionExpired();
        if (def.roles && !staff.roles.includes('admin') && !def.roles.some((r) => staff!.roles.includes(r))) throw forbidden();
      }
      let input: unknown = {};
      if (def.input) {
        const raw = { ...(req.query as object), ...(typeof req.body === 'object' && req.body ? (req.body as object) : {}) };
        const unsafe = unsafeInputField(raw);
        if (unsafe) throw invalid('text_invalid_characters', { field: unsafe });
        const parsed = def.input.safeParse(raw);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const custom = issue.message.startsWith('msg:') ? issue.message.slice(4) : null;
          throw custom ? invalid(custom) : invalid('invalid_param', { field: fieldOf(issue) });
        }
        input = parsed.data;
      }
      const data = await def.handler({ input, lang, user, staff, req, reply } as unknown as HandlerCtx<z.infer<S>, A>);
      if (reply.sent) return reply;
      const envelope = ok(lang, data ?? null);
      if (!serialize) return envelope;
      check?.(def.url, envelope.data);
      reply.type('application/json; charset=utf-8');
      return serialize(envelope);
    },
  });
}

/** The handler of an endpoint: what it answers in `data` is typed by the endpoint's output schema. */
export type EndpointHandler<E extends Endpoint> = (
  ctx: HandlerCtx<E['input'] extends z.ZodType ? z.output<E['input']> : Record<string, never>, E['auth']>,
) => Promise<z.input<E['output']>> | z.input<E['output']>;

/**
 * Registers the route of an endpoint declared in `@tp/contract/endpoints`: path, methods, auth, input,
 * output and documentation come from the endpoint; the module gives only the handler.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  ctx: AppContext,
  ep: E,
  handler: EndpointHandler<E>,
  /** What depends on configuration (a rate limit set by the operator). */
  options: { rateLimit?: { max: number; timeWindow?: number } } = {},
): void {
  defineRoute(app, ctx, {
    method: ep.method as HTTPMethods | HTTPMethods[],
    url: ep.path,
    input: ep.input,
    auth: ep.auth,
    realOnly: ep.realOnly,
    roles: ep.roles as string[] | undefined,
    summary: ep.summary,
    tags: [...ep.tags],
    response: ep.raw ? undefined : ep.output,
    rateLimit: options.rateLimit ?? ep.rateLimit,
    raw: ep.raw,
    apiKeyScope: apiKeyScopeOf(ep),
    handler: handler as RouteDef<z.ZodType, AuthMode>['handler'],
  } as RouteDef<z.ZodType, AuthMode>);
}

export { AppError };
