import { Code } from '@tp/contract/codes';
import { WS_CONNECT_TIMEOUT_MS, WS_PATH } from '@tp/contract/constants';
import { isAnnouncementTopic, type ParsedJsonMessage, parseServerMessage, topicOfMessage } from '@tp/contract/push-parse';
import type { ClientMessageOf, JsonServerMessage, MessageOnTopic, ServerMessageOf, SocketTopic } from '@tp/contract/pushes';
import { currentLang } from './i18n';
import { endSession } from './session-ended';
import { getToken } from './session-store';

export type SocketStatus = 'idle' | 'connecting' | 'open' | 'closed';

/** A push or reply from the server as the contract declares it; `type` names the topic without its suffix. */
export type SocketMessage = JsonServerMessage;
export type { SocketTopic };
/** A handler of one topic's pushes, typed by the message that topic carries. */
export type SocketHandler<T extends SocketTopic = SocketTopic> = (message: MessageOnTopic<T>) => void;
type SessionEnded = ServerMessageOf<'session_ended'>;

/** The part of the browser WebSocket the client uses, so tests can inject a fake one. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

type TimerId = ReturnType<typeof setTimeout>;
export interface SocketTimers {
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  setInterval(fn: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
}

export interface SocketOptions {
  url: () => string;
  getToken: () => string | null;
  WebSocketImpl?: WebSocketConstructor;
  timers?: SocketTimers;
  /** Backoff of the n-th reconnect (or login) attempt: up to 1 s, 2 s, 4 s, ... capped at maxBackoffMs, jittered. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** A number in [0, 1) for the jitter (tests pin it). */
  random?: () => number;
  /** The server ended this connection's session (logout elsewhere, password change, expiry...). */
  onSessionEnded?: (message: SessionEnded) => void;
}

const OPEN = 1;
/** How many recent push seqs are remembered to drop a push that comes twice (a replay racing a live push). */
const SEEN_SEQS = 256;

/**
 * Delay before the n-th retry (0-based): exponential up to `maxMs`, with "equal jitter" (half of it
 * fixed, half random), so clients cut off together by a restart do not all come back on the same beat.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * Liveness: a ping every half second, and a connection that has said nothing (no pong, no push) for
 * 2 s is dead, so the connection indicator and stale prices tell the truth within 2 s.
 */
export const PING_INTERVAL_MS = 500;
export const DEAD_AFTER_MS = 2_000;
const MAX_SILENT_PINGS = DEAD_AFTER_MS / PING_INTERVAL_MS - 1;

// Resolved at call time so fake timers installed after construction still apply.
const globalTimers: SocketTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id),
};

export class SocketClient {
  private readonly options: Required<Omit<SocketOptions, 'WebSocketImpl' | 'onSessionEnded'>> &
    Pick<SocketOptions, 'WebSocketImpl' | 'onSessionEnded'>;
  private ws: WebSocketLike | null = null;
  private started = false;
  private missedPings = 0;
  private attempts = 0;
  private everOpened = false;
  /** The login was refused for a reason other than a bad token (the server could not check it): retrying. */
  private loginFailing = false;
  private loginAttempts = 0;
  private loginTimer: TimerId | null = null;
  /** Pushes may have been missed (a reconnect, a login that failed): tell onResync once logged in again. */
  private resyncDue = false;
  private heartbeatTimer: TimerId | null = null;
  private connectTimer: TimerId | null = null;
  private reconnectTimer: TimerId | null = null;
  private currentStatus: SocketStatus = 'idle';
  private readonly listeners = new Map<string, Set<(message: SocketMessage) => void>>();
  private readonly statusListeners = new Set<(status: SocketStatus) => void>();
  private readonly loginListeners = new Set<() => void>();
  private readonly resyncListeners = new Set<() => void>();
  /** The token of the last login sent on this connection: whose pushes arrive. */
  private loginToken: string | null = null;
  /**
   * The NOTICE and FOREX_CLOSED seqs seen for one session (the token they came for): the highest is
   * sent as `replay` after a login on a new connection, and a seq seen already is dropped.
   */
  private seqs: { token: string; last: number; seen: Set<number> } | null = null;

  constructor(options: SocketOptions) {
    this.options = { timers: globalTimers, baseBackoffMs: 1_000, maxBackoffMs: 10_000, random: Math.random, ...options };
  }

  /** Connected, but the server could not log this session in yet; the login is being retried. */
  get loginRetrying(): boolean {
    return this.loginFailing;
  }

  get status(): SocketStatus {
    return this.currentStatus;
  }

  /** The connection was lost and is not back yet (a first connection under way is not a loss). */
  get down(): boolean {
    return this.currentStatus === 'closed' || (this.currentStatus === 'connecting' && this.attempts > 0);
  }

  /** The browser lost its network: the connection is gone now, whatever the socket says yet. */
  networkLost(): void {
    if (!this.started || this.currentStatus === 'idle') return;
    this.reconnect();
  }

  /** Idempotent: connects once; later calls do nothing while a connection or retry is under way. */
  start(): void {
    this.started = true;
    if (this.ws || this.reconnectTimer !== null) return;
    this.connect();
  }

  stop(): void {
    this.started = false;
    if (this.reconnectTimer !== null) this.options.timers.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.drop();
    this.setStatus('idle');
  }

  /** Calls `handler` with every message of the topic (announcements are listened to, never subscribed). */
  subscribe<T extends SocketTopic>(topic: T, handler: SocketHandler<T>): () => void {
    const listener = handler as (message: SocketMessage) => void;
    let handlers = this.listeners.get(topic);
    if (!handlers) {
      handlers = new Set();
      this.listeners.set(topic, handlers);
      if (!isAnnouncementTopic(topic)) this.sendJson({ type: 'sub', params: topic });
    }
    handlers.add(listener);
    return () => {
      const current = this.listeners.get(topic);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(topic);
      if (!isAnnouncementTopic(topic)) this.sendJson({ type: 'unsub', params: topic });
    };
  }

  /** Called when the session token changes: ends the old login and starts the new one. */
  relogin(): void {
    if (!this.isOpen()) return;
    this.clearLoginRetry();
    this.setLoginFailing(false);
    this.sendJson({ type: 'logout', params: '' });
    this.login();
  }

  onStatus(listener: (status: SocketStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => {
      this.statusListeners.delete(listener);
    };
  }

  /** Called when `loginRetrying` changes. */
  onLoginState(listener: () => void): () => void {
    this.loginListeners.add(listener);
    return () => {
      this.loginListeners.delete(listener);
    };
  }

  /**
   * Called once the connection is back after a loss (logged in again when there is a session), and
   * after a login that had failed succeeds: pushes may have been missed, so what they update is refetched.
   * Not called for the first connection.
   */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => {
      this.resyncListeners.delete(listener);
    };
  }

  private connect(): void {
    const { timers, WebSocketImpl = globalThis.WebSocket as unknown as WebSocketConstructor } = this.options;
    this.setStatus('connecting');
    let ws: WebSocketLike;
    try {
      ws = new WebSocketImpl(this.options.url());
    } catch {
      this.setStatus('closed');
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.connectTimer = timers.setTimeout(() => {
      this.connectTimer = null;
      if (this.ws === ws && ws.readyState !== OPEN) this.reconnect();
    }, WS_CONNECT_TIMEOUT_MS);
    ws.onopen = () => this.handleOpen(ws);
    ws.onmessage = (event) => this.handleMessage(event.data);
    ws.onclose = () => {
      if (this.ws === ws) this.reconnect();
    };
    ws.onerror = () => {
      // A close event follows every error; reconnecting happens there.
    };
  }

  private handleOpen(ws: WebSocketLike): void {
    if (this.ws !== ws) return;
    const { timers } = this.options;
    if (this.connectTimer !== null) timers.clearTimeout(this.connectTimer);
    this.connectTimer = null;
    this.attempts = 0;
    this.missedPings = 0;
    this.loginAttempts = 0;
    if (this.everOpened) this.resyncDue = true;
    this.everOpened = true;
    this.heartbeatTimer = timers.setInterval(() => this.heartbeat(), PING_INTERVAL_MS);
    this.setStatus('open');
    // Without a session there is no login to wait for: what a guest sees is fetched again now.
    if (!this.login()) this.resync();
    for (const topic of this.listeners.keys()) if (!isAnnouncementTopic(topic)) this.sendJson({ type: 'sub', params: topic });
  }

  private heartbeat(): void {
    if (this.missedPings >= MAX_SILENT_PINGS) {
      this.reconnect();
      return;
    }
    this.sendRaw('ping');
    this.missedPings += 1;
  }

  private handleMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    // Anything heard proves the connection alive.
    this.missedPings = 0;
    // The one reader of frames: each is checked against its declared shape; what matches none is dropped.
    const parsed = parseServerMessage(data);
    if (!parsed || parsed.name === 'pong') return;
    if (parsed.name === 'session_ended') this.options.onSessionEnded?.(parsed.message);
    else if (parsed.name === 'login_result') this.handleLoginResult(parsed.message.code);
    else if ((parsed.name === 'NOTICE' || parsed.name === 'FOREX_CLOSED') && !this.firstTime(parsed.message.seq)) return;
    else this.dispatch(parsed);
  }

  /** Whether a push with this seq is new (pushes without one always are); remembers it. */
  private firstTime(seq: number | undefined): boolean {
    const token = this.loginToken;
    if (seq === undefined || token === null) return true;
    if (this.seqs?.token !== token) this.seqs = { token, last: seq, seen: new Set() };
    const { seen } = this.seqs;
    if (seen.has(seq)) return false;
    seen.add(seq);
    if (seen.size > SEEN_SEQS) seen.delete(seen.values().next().value!);
    this.seqs.last = Math.max(this.seqs.last, seq);
    return true;
  }

  /** After a login, asks for the pushes of this session that followed the last one seen (a lost connection may have missed some). */
  private replayMissed(): void {
    if (this.seqs && this.seqs.token === this.loginToken) this.sendJson({ type: 'replay', params: String(this.seqs.last) });
  }

  /**
   * 1 logged in; 999 the token is bad (the session ends through the API, retrying cannot help); any
   * other code (500: the server could not check it) is retried with backoff while the connection lasts.
   */
  private handleLoginResult(code: number): void {
    if (code === Code.SUCCESS) {
      this.loginAttempts = 0;
      this.setLoginFailing(false);
      this.replayMissed();
      this.resync();
      return;
    }
    if (code === Code.SESSION_EXPIRED) {
      this.setLoginFailing(false);
      return;
    }
    this.resyncDue = true;
    this.setLoginFailing(true);
    if (this.loginTimer !== null) return;
    const { baseBackoffMs, maxBackoffMs, random, timers } = this.options;
    const delay = backoffDelay(this.loginAttempts, baseBackoffMs, maxBackoffMs, random);
    this.loginAttempts += 1;
    this.loginTimer = timers.setTimeout(() => {
      this.loginTimer = null;
      this.login();
    }, delay);
  }

  private resync(): void {
    if (!this.resyncDue) return;
    this.resyncDue = false;
    for (const listener of [...this.resyncListeners]) listener();
  }

  private dispatch(parsed: ParsedJsonMessage): void {
    const topic = topicOfMessage(parsed);
    const handlers = topic && this.listeners.get(topic);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      try {
        handler(parsed.message);
      } catch (error) {
        console.error('socket handler failed', error);
      }
    }
  }

  /** Sends the login when there is a session; says whether it did. */
  private login(): boolean {
    const token = this.options.getToken();
    if (!token || !this.isOpen()) return false;
    this.loginToken = token;
    this.sendJson({ type: 'login', params: token });
    return true;
  }

  private clearLoginRetry(): void {
    if (this.loginTimer !== null) this.options.timers.clearTimeout(this.loginTimer);
    this.loginTimer = null;
  }

  private setLoginFailing(failing: boolean): void {
    if (failing === this.loginFailing) return;
    this.loginFailing = failing;
    for (const listener of this.loginListeners) listener();
  }

  private reconnect(): void {
    this.drop();
    this.setStatus('closed');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.started || this.reconnectTimer !== null) return;
    const { baseBackoffMs, maxBackoffMs, random, timers } = this.options;
    const delay = backoffDelay(this.attempts, baseBackoffMs, maxBackoffMs, random);
    this.attempts += 1;
    this.reconnectTimer = timers.setTimeout(() => {
      this.reconnectTimer = null;
      if (this.started && !this.ws) this.connect();
    }, delay);
  }

  /** Forgets the current connection without triggering its close handler. */
  private drop(): void {
    const { timers } = this.options;
    if (this.heartbeatTimer !== null) timers.clearInterval(this.heartbeatTimer);
    if (this.connectTimer !== null) timers.clearTimeout(this.connectTimer);
    this.heartbeatTimer = null;
    this.connectTimer = null;
    this.clearLoginRetry();
    // Not logged in on a connection that is gone; the status says the connection is down.
    this.setLoginFailing(false);
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onopen = ws.onclose = ws.onerror = null;
    ws.onmessage = null;
    try {
      ws.close();
    } catch {
      // Closing a socket that never opened may throw in some browsers; it is gone either way.
    }
  }

  private isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === OPEN && this.currentStatus === 'open';
  }

  private sendJson(message: ClientMessageOf<'login' | 'logout' | 'sub' | 'unsub' | 'replay'>): void {
    this.sendRaw(JSON.stringify(message));
  }

  private sendRaw(data: string): void {
    if (this.isOpen()) this.ws!.send(data);
  }

  private setStatus(status: SocketStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
  }
}

export function defaultSocketUrl(): string {
  const { protocol, host } = window.location;
  // The server's messages on the socket in the app's language (it answers English when none is named).
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${WS_PATH}?lang=${currentLang()}`;
}

export const socket = new SocketClient({ url: defaultSocketUrl, getToken, onSessionEnded: (m) => endSession(String(m.reason)) });
if (typeof window !== 'undefined') window.addEventListener('offline', () => socket.networkLost());
