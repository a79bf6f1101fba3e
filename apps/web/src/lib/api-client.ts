import { Code, type Envelope } from '@tp/contract/codes';
import { type Endpoint, type InputOf, methodsOf, type OutputOf } from '@tp/contract/endpoint';
import { hideLoading, showLoading } from '../components/ui/loading-store';
import { toast } from '../components/ui/toast-store';
import { currentLang, i18n } from './i18n';
import { currentPath, loginPath, navigateTo } from './navigation';
import { getToken, useSessionStore } from './session-store';
import { useStaffSession } from './staff-session-store';

export type ApiErrorKind = 'business' | 'network' | 'aborted';

/** A refused call: `code` is the envelope code, the HTTP status, or a short code like ERR_NETWORK. */
export class ApiError extends Error {
  readonly code: number | string;
  readonly kind: ApiErrorKind;

  /** What the server sent with a refusal (the TOTP setup of a staff member's first sign-in). */
  readonly data: unknown;

  constructor(code: number | string, message: string, kind: ApiErrorKind = 'business', data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.kind = kind;
    this.data = data;
  }
}

export interface RequestOptions {
  /** Toast the server's msg when the call succeeds. */
  showSuccessMessage?: boolean;
  /** Toast the server's msg when it refuses the call (default true). */
  showErrorMessage?: boolean;
  /** A background call made at start: an expired session is cleared without leaving the page. */
  initial?: boolean;
  /** Show the global loading indicator until the answer arrives. */
  loading?: boolean;
  /** POST body encoding; a FormData body is always sent as multipart. */
  bodyType?: 'form' | 'json' | 'multipart';
  signal?: AbortSignal;
  /** Give up after this long with the network-error toast (ERR_TIMEOUT); trading calls get TRADING_TIMEOUT_MS. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Whose session the call carries: the trader's (default) or the back office's staff session. */
  session?: 'user' | 'staff';
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;
type Method = 'GET' | 'POST' | 'DELETE' | 'PUT';

function withQuery(path: string, params: QueryParams | undefined, stamp: boolean): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  if (stamp) query.set('t', String(Date.now()));
  const text = query.toString();
  if (!text) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

function encodeBody(body: unknown, bodyType: RequestOptions['bodyType']): { body?: BodyInit; contentType?: string } {
  if (body === undefined || body === null) return {};
  if (body instanceof FormData) return { body };
  if (bodyType === 'json') return { body: JSON.stringify(body), contentType: 'application/json' };
  if (bodyType === 'multipart') {
    const form = new FormData();
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (value !== undefined && value !== null) form.append(key, value instanceof Blob ? value : String(value));
    }
    return { body: form };
  }
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value !== undefined && value !== null) form.append(key, String(value));
  }
  return { body: form.toString(), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';
}

/** An order call waits at most this long: a late answer would fill at a price the trader never saw. */
export const TRADING_TIMEOUT_MS = 10_000;

function isTimeout(error: unknown, timeout: AbortSignal | undefined): boolean {
  return Boolean(timeout?.aborted) || (error instanceof DOMException && error.name === 'TimeoutError');
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return Boolean(signal?.aborted) || (error instanceof DOMException && error.name === 'AbortError');
}

/** Network-level failures are always toasted with their code (spec section 8); only aborts are silent. */
function networkFailure(code: number | string): ApiError {
  const message = i18n.t('errors.network', { code });
  toast(message, 'error');
  return new ApiError(code, message, 'network');
}

function sessionExpired(envelope: Envelope, options: RequestOptions): ApiError {
  if (options.session === 'staff') {
    // The back office shows its sign-in form in place; the trader's session is left alone.
    useStaffSession.getState().signOut();
    return new ApiError(envelope.code, envelope.msg);
  }
  useSessionStore.getState().logout();
  if (!options.initial) {
    const here = currentPath();
    navigateTo(here.startsWith('/login') ? '/login' : loginPath(here), { replace: true });
  }
  return new ApiError(envelope.code, envelope.msg);
}

export async function apiRequest<T>(
  method: Method,
  path: string,
  { params, body }: { params?: QueryParams; body?: unknown } = {},
  options: RequestOptions = {},
): Promise<T> {
  const url = withQuery(path, params, method === 'GET' || method === 'DELETE');
  const encoded = encodeBody(body, options.bodyType);
  const headers: Record<string, string> = { lang: currentLang(), ...options.headers };
  const token = options.session === 'staff' ? useStaffSession.getState().token : getToken();
  if (token) headers.authorization = token;
  if (encoded.contentType) headers['content-type'] = encoded.contentType;

  const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const signal = timeout && options.signal ? AbortSignal.any([options.signal, timeout]) : (timeout ?? options.signal);
  const failed = (error: unknown): ApiError | null => {
    if (isTimeout(error, timeout)) return networkFailure('ERR_TIMEOUT');
    if (isAbort(error, options.signal)) return new ApiError('ERR_CANCELED', 'canceled', 'aborted');
    return null;
  };

  if (options.loading) showLoading();
  try {
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: encoded.body, signal });
    } catch (error) {
      throw failed(error) ?? networkFailure('ERR_NETWORK');
    }

    let payload: unknown;
    try {
      payload = await response.json();
    } catch (error) {
      const failure = failed(error);
      if (failure) throw failure;
      payload = undefined;
    }
    if (!isEnvelope(payload)) throw networkFailure(response.ok ? 'ERR_BAD_RESPONSE' : response.status);

    if (payload.code === Code.SUCCESS) {
      if (options.showSuccessMessage && payload.msg) toast(payload.msg, 'success');
      return payload.data as T;
    }
    if (payload.code === Code.SESSION_EXPIRED) throw sessionExpired(payload, options);
    if (options.showErrorMessage !== false && payload.msg) toast(payload.msg, 'error');
    throw new ApiError(payload.code, payload.msg, 'business', payload.data);
  } finally {
    if (options.loading) hideLoading();
  }
}

export const apiGet = <T>(path: string, params?: QueryParams, options?: RequestOptions): Promise<T> =>
  apiRequest<T>('GET', path, { params }, options);

export const apiPost = <T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> =>
  apiRequest<T>('POST', path, { body }, options);

export const apiDelete = <T>(path: string, params?: QueryParams, options?: RequestOptions): Promise<T> =>
  apiRequest<T>('DELETE', path, { params }, options);

/**
 * Calls an endpoint declared in `@tp/contract/endpoints`: its path, method, session (a staff endpoint
 * carries the staff token) and body encoding come from the declaration; input and answer are typed by
 * its schemas. The only way the web app reaches the API.
 */
export function call<E extends Endpoint>(endpoint: E, input: InputOf<E>, options: RequestOptions = {}): Promise<OutputOf<E>> {
  const method = methodsOf(endpoint)[0]!;
  const opts: RequestOptions = {
    session: endpoint.auth === 'staff' ? 'staff' : 'user',
    bodyType: endpoint.body,
    timeoutMs: endpoint.tags.includes('trading') ? TRADING_TIMEOUT_MS : undefined,
    ...options,
  };
  const values = (input ?? undefined) as QueryParams | undefined;
  if (method === 'GET' || method === 'DELETE') return apiRequest<OutputOf<E>>(method, endpoint.path, { params: values }, opts);
  return apiRequest<OutputOf<E>>(method, endpoint.path, { body: input ?? undefined }, opts);
}

/**
 * The cache key of an endpoint's answer: one key per endpoint and input, so every screen that shows the
 * same data shares one query, and `queryKey(endpoint)` (no input) invalidates all of its inputs.
 */
export function queryKey<E extends Endpoint>(endpoint: E, input?: InputOf<E>): readonly unknown[] {
  return input === undefined || input === null ? [endpoint.path] : [endpoint.path, input];
}
