import type { z } from 'zod';

/**
 * One HTTP call of the product, declared once: the server registers its route from this object (input
 * parsed, output serialized and checked from the schemas), the web app calls it through `call(endpoint,
 * input)` and caches it under `queryKey(endpoint, input)`, and the OpenAPI page lists it. Every endpoint
 * lives in `endpoints/<module>.ts`; no other file names an API path.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call: `none` anyone, `optional` anyone (a session is used when sent), `user` a trader's
 * session (`realOnly` refuses demo users with the spec's message), `staff` a staff session with one of
 * `roles` (admin always passes).
 */
export type EndpointAuth = 'none' | 'optional' | 'user' | 'staff';

/** How the web app sends a call whose method has a body. */
export type BodyEncoding = 'form' | 'json' | 'multipart';

export interface Endpoint<I extends z.ZodType | undefined = z.ZodType | undefined, O extends z.ZodType = z.ZodType, A extends EndpointAuth = EndpointAuth> {
  /** Methods the server answers; the web app sends the first. Existing clients send GET and POST alike. */
  readonly method: HttpMethod | readonly HttpMethod[];
  readonly path: string;
  readonly auth: A;
  readonly realOnly?: boolean;
  readonly roles?: readonly string[];
  /** Parameters from the query string and the body together (existing clients send either). */
  readonly input?: I;
  /** Schema of `data` in a successful answer: the server serializes with it and tests check against it. */
  readonly output: O;
  readonly summary: string;
  readonly tags: readonly string[];
  /** Web app: how the body is encoded (default form, as the spec's clients send). */
  readonly body?: BodyEncoding;
  /** Per-route rate limit (requests per minute per address). */
  readonly rateLimit?: { readonly max: number; readonly timeWindow?: number };
  /**
   * Not an enveloped JSON answer (an image, a file, a redirect): the output schema documents nothing and
   * the handler sends its own reply.
   */
  readonly raw?: boolean;
}

/** Declares an endpoint, keeping its literal types (path, auth, schemas) for both sides. */
export const endpoint = <const E extends Endpoint>(e: E): E => e;

/**
 * Fields whose input side is `unknown` (preprocessed: existing clients send text or numbers) may be left
 * out, as the server applies their defaults; the rest keep their input types.
 */
type LooseInput<T> = T extends Record<string, unknown>
  ? { [K in keyof T as unknown extends T[K] ? K : never]?: T[K] } & { [K in keyof T as unknown extends T[K] ? never : K]: T[K] }
  : T;

/** What the web app passes: the schema's input side (before coercion), or nothing. */
export type InputOf<E extends Endpoint> = E['input'] extends z.ZodType ? LooseInput<z.input<E['input']>> : void;

/** What a successful call answers in `data`. */
export type OutputOf<E extends Endpoint> = z.output<E['output']>;

/** The methods of an endpoint as a list. */
export const methodsOf = (e: Endpoint): readonly HttpMethod[] => (typeof e.method === 'string' ? [e.method] : e.method);
