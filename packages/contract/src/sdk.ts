/**
 * A small typed client for bots and scripts, built on the same declarations as the server and the web
 * app: `call(endpoint, input)` takes an endpoint object from `@tp/contract/endpoints/*` and is typed by
 * its zod schemas; `socket()` opens /v1/ws, logs in and `subscribe(topic)` yields that topic's pushes,
 * read with `parseServerMessage` (the contract's one frame reader). Runs on Node 24 and in browsers
 * (fetch, WebSocket and WebCrypto only).
 *
 * Credentials, one of: a session `token`; an API key sent as `Authorization: ApiKey <key>`; or the key's
 * id and secret, which sign each call (X-API-Key, X-API-Timestamp, X-API-Signature) so the secret never
 * travels. The socket logs in with the key itself (`tpk_<id>_<secret>`) in both key forms.
 */
import { Code, type Envelope } from './codes.ts';
import { type Endpoint, type InputOf, methodsOf, type OutputOf } from './endpoint.ts';
import { isAnnouncementTopic, parseServerMessage, topicOfMessage, type ParsedServerMessage } from './push-parse.ts';
import type { MessageOnTopic, ServerMessageOf, SocketTopic } from './pushes.ts';

type None = { token?: never; apiKey?: never; keyId?: never; secret?: never };
/** A session token, an API key sent as it is, the key's id and secret to sign with, or nothing (public calls). */
export type Credentials =
  | (Omit<None, 'token'> & { token: string })
  | (Omit<None, 'apiKey'> & { apiKey: string })
  | (Omit<None, 'keyId' | 'secret'> & { keyId: number | string; secret: string })
  | None;

export type ClientOptions = Credentials & {
  /** The server, e.g. `https://broker.example` (the socket is its /v1/ws). */
  baseUrl: string;
  /** Language of the server's messages (`msg`), one of the 18 codes; English when left out. */
  lang?: string;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
};

/** A refused call: the envelope's `code` and translated `msg` (or the HTTP status when no envelope came). */
export class ApiCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

const KEY_PATTERN = /^tpk_([1-9]\d{0,9})_([A-Za-z0-9_-]{43})$/;

/** The id and secret inside a key `tpk_<id>_<secret>` (the secret may itself hold `_`). */
export function splitApiKey(key: string): { keyId: string; secret: string } {
  const m = KEY_PATTERN.exec(key.trim());
  if (!m) throw new Error('not an API key (tpk_<id>_<secret>)');
  return { keyId: m[1]!, secret: m[2]! };
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The X-API-Signature of a call: hex HMAC-SHA256 with the key's secret over timestamp (ms, as sent) +
 * method (upper case) + path with its query, exactly as sent + body, exactly as sent ('' for none).
 */
export async function signRequest(p: { secret: string; timestamp: string; method: string; path: string; body: string }): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(p.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, enc.encode(p.timestamp + p.method.toUpperCase() + p.path + p.body)));
}

/** Query text of an input: lists as comma-separated text and times as ISO, as the server reads them. */
function queryOf(input: unknown): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    query.append(name, Array.isArray(value) ? value.join(',') : value instanceof Date ? value.toISOString() : String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export interface Client {
  /** Calls an endpoint; answers its `data`, or throws ApiCallError with the server's code and message. */
  call<E extends Endpoint>(endpoint: E, ...input: InputOf<E> extends void ? [] : [InputOf<E>]): Promise<OutputOf<E>>;
  /** Opens the socket and, with credentials, logs in (rejects when the login is refused). */
  socket(): Promise<Socket>;
}

export function createClient(options: ClientOptions): Client {
  const base = options.baseUrl.replace(/\/+$/, '');
  const lang = options.lang ?? 'en';
  const doFetch = options.fetch ?? fetch;
  const signing = options.keyId !== undefined && options.secret ? { keyId: String(options.keyId), secret: options.secret } : null;
  const bearer = options.apiKey ? `ApiKey ${options.apiKey}` : (options.token ?? null);
  const socketLogin = signing ? `ApiKey tpk_${signing.keyId}_${signing.secret}` : bearer;

  async function call<E extends Endpoint>(endpoint: E, ...rest: unknown[]): Promise<OutputOf<E>> {
    if (endpoint.body === 'multipart' || endpoint.raw)
      throw new Error(`${endpoint.path} is not callable through the SDK (file upload or raw answer)`);
    // A call with input goes as a JSON body when the endpoint takes POST (not in the URL, where logs keep it).
    const methods = methodsOf(endpoint);
    const method = endpoint.input && methods.includes('POST') ? 'POST' : methods[0]!;
    const withBody = method === 'POST' || method === 'PUT';
    const path = withBody ? endpoint.path : endpoint.path + queryOf(rest[0]);
    const body = withBody ? JSON.stringify(rest[0] ?? {}) : '';
    const headers: Record<string, string> = { lang, accept: 'application/json' };
    if (withBody) headers['content-type'] = 'application/json';
    if (signing) {
      const timestamp = String(Date.now());
      headers['x-api-key'] = signing.keyId;
      headers['x-api-timestamp'] = timestamp;
      headers['x-api-signature'] = await signRequest({ secret: signing.secret, timestamp, method, path, body });
    } else if (bearer) headers.authorization = bearer;
    const res = await doFetch(base + path, { method, headers, body: withBody ? body : undefined });
    const envelope = (await res.json().catch(() => null)) as Envelope | null;
    if (!envelope || typeof envelope.code !== 'number') throw new ApiCallError(res.status, `HTTP ${res.status} without an answer`);
    if (envelope.code !== Code.SUCCESS) throw new ApiCallError(envelope.code, envelope.msg, envelope.data);
    return envelope.data as OutputOf<E>;
  }

  async function socket(): Promise<Socket> {
    const url = `${base.replace(/^http/, 'ws')}/v1/ws?lang=${encodeURIComponent(lang)}`;
    const s = new Socket(new (options.WebSocket ?? WebSocket)(url));
    await s.opened;
    if (socketLogin) await s.login(socketLogin);
    return s;
  }

  return { call: call as Client['call'], socket };
}

type Listener = (parsed: ParsedServerMessage) => void;

/** A subscription: its pushes in order, as an async iterator or one at a time with `next`. */
export interface Subscription<T extends SocketTopic> extends AsyncIterable<MessageOnTopic<T>> {
  /** The next push (matching `where` when given), or a rejection after `timeoutMs` (10 s). */
  next(where?: (message: MessageOnTopic<T>) => boolean, timeoutMs?: number): Promise<MessageOnTopic<T>>;
  unsubscribe(): void;
}

const HEARTBEAT_MS = 20_000;

/** One connection to /v1/ws: replies and pushes are parsed by the contract and handed to listeners. */
export class Socket {
  readonly opened: Promise<void>;
  private readonly listeners = new Set<Listener>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private closed = false;
  /** Ends the waits for pushes when the socket closes. */
  private readonly onClose = new Set<() => void>();

  constructor(private readonly ws: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error('the socket could not be opened')), { once: true });
    });
    ws.addEventListener('message', (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      const parsed = parseServerMessage(event.data);
      if (parsed) for (const listener of [...this.listeners]) listener(parsed);
    });
    this.heartbeat = setInterval(() => ws.readyState === ws.OPEN && ws.send('ping'), HEARTBEAT_MS);
    (this.heartbeat as { unref?: () => void }).unref?.();
    ws.addEventListener('close', () => {
      clearInterval(this.heartbeat);
      this.closed = true;
      for (const reject of [...this.onClose]) reject();
    });
  }

  /** Logs in with a session token or `ApiKey <key>`; rejects with the server's message when refused. */
  async login(params: string): Promise<void> {
    const answer = this.reply('login_result', () => true);
    this.ws.send(JSON.stringify({ type: 'login', params }));
    const result = await answer;
    if (result.code !== Code.SUCCESS) throw new ApiCallError(result.code, result.msg);
  }

  /**
   * Subscribes to a topic (DAY_MARKET, KLINE.<symbol>, MARKET_DEPTH.<symbol>, FOREX_TRADE, FOREX_CLOSED,
   * CHAT) and resolves once the server accepted it; NOTICE and ALERT come to a logged-in connection
   * without asking, so they are only listened to.
   */
  async subscribe<T extends SocketTopic>(topic: T): Promise<Subscription<T>> {
    const queue: MessageOnTopic<T>[] = [];
    const waiting: { where: (m: MessageOnTopic<T>) => boolean; resolve: (m: MessageOnTopic<T>) => void }[] = [];
    const listener: Listener = (parsed) => {
      if (parsed.name === 'pong' || topicOfMessage(parsed) !== topic) return;
      const message = parsed.message as MessageOnTopic<T>;
      const i = waiting.findIndex((w) => w.where(message));
      if (i >= 0) waiting[i]!.resolve(message);
      else queue.push(message);
    };
    this.listeners.add(listener);
    if (!isAnnouncementTopic(topic)) {
      const answer = this.reply('sub_result', (m) => m.topic === topic);
      this.ws.send(JSON.stringify({ type: 'sub', params: topic }));
      const result = await answer;
      if (result.code !== Code.SUCCESS) {
        this.listeners.delete(listener);
        throw new ApiCallError(result.code, result.msg);
      }
    }
    const next = (where: (m: MessageOnTopic<T>) => boolean = () => true, timeoutMs = 10_000) => {
      const i = queue.findIndex(where);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]!);
      if (this.closed) return Promise.reject(new Error('the socket is closed'));
      return new Promise<MessageOnTopic<T>>((resolve, reject) => {
        const settle = () => {
          clearTimeout(timer);
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          this.onClose.delete(closed);
        };
        const entry = {
          where,
          resolve: (m: MessageOnTopic<T>) => {
            settle();
            resolve(m);
          },
        };
        const closed = () => {
          settle();
          reject(new Error('the socket is closed'));
        };
        // No timer for the iterator (Infinity): it waits as long as the socket stays open.
        const timer = Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              settle();
              reject(new Error(`no ${topic} push within ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
        waiting.push(entry);
        this.onClose.add(closed);
      });
    };
    const isOpen = () => !this.closed;
    return {
      next,
      unsubscribe: () => {
        this.listeners.delete(listener);
        if (!isAnnouncementTopic(topic) && this.ws.readyState === this.ws.OPEN)
          this.ws.send(JSON.stringify({ type: 'unsub', params: topic }));
      },
      async *[Symbol.asyncIterator]() {
        // Ends when the socket closes (the pushes already received are handed out first).
        while (isOpen() || queue.length) {
          const message = await next(undefined, Infinity).catch(() => null);
          if (message === null) return;
          yield message;
        }
      },
    };
  }

  /** Every parsed frame, for what `subscribe` does not cover (session_ended, replies); answers a remover. */
  onMessage(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.ws.close();
  }

  private reply<N extends 'login_result' | 'sub_result'>(name: N, where: (m: ServerMessageOf<N>) => boolean): Promise<ServerMessageOf<N>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no ${name} within 10 s`));
      }, 10_000);
      const listener: Listener = (parsed) => {
        if (parsed.name !== name || !where(parsed.message as ServerMessageOf<N>)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(parsed.message as ServerMessageOf<N>);
      };
      this.listeners.add(listener);
    });
  }
}
