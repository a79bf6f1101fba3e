import WebSocket from 'ws';
import type { PriceSource, SourceDeps } from './price-source.ts';

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
const PRICE = /^\d+(\.\d+)?$/;

export interface FeedStatus {
  connected: boolean;
  stale: boolean;
  lastMessageAt: number | null;
  connects: number;
}

/** Parses FEED_SYMBOL_MAP ({"external": "OURCODE"}); without a map the feed's codes are ours. */
export function parseSymbolMap(raw: string | undefined): Map<string, string> | null {
  if (!raw) return null;
  const parsed = JSON.parse(raw) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('FEED_SYMBOL_MAP must be a JSON object');
  return new Map(Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, String(v).toUpperCase()]));
}

const priceOf = (v: unknown): string | null => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  return PRICE.test(s) ? s : null;
};

/**
 * The source's own timestamp of a quote, epoch milliseconds: a number of milliseconds (or of seconds,
 * when below 10^11) or an ISO 8601 string; undefined when absent or unreadable.
 */
export function sourceTimeOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  const ms = Number.isFinite(n) ? (n < 1e11 ? n * 1000 : n) : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms) : undefined;
}

/**
 * An external JSON-over-WebSocket feed. Each message is one quote or an array of quotes:
 * {symbol|code|s, bid|b, ask|a, volume|v?, time|ts|t?}; with a time, the quote's age counts from it. Reconnects with exponential backoff; a feed silent for
 * FEED_STALE_MS is marked stale, logged, and reconnected.
 */
export class ExternalFeedSource implements PriceSource {
  readonly name = 'external';
  private socket: WebSocket | null = null;
  private stopped = true;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private staleTimer: NodeJS.Timeout | null = null;
  private readonly symbolMap: Map<string, string> | null;
  private since = 0;
  readonly status: FeedStatus = { connected: false, stale: false, lastMessageAt: null, connects: 0 };

  constructor(private readonly deps: SourceDeps) {
    if (!deps.config.FEED_URL) throw new Error('PRICE_SOURCE=external needs FEED_URL');
    this.symbolMap = parseSymbolMap(deps.config.FEED_SYMBOL_MAP);
  }

  start(): void {
    this.stopped = false;
    this.since = Date.now();
    const staleMs = this.deps.config.FEED_STALE_MS;
    this.staleTimer = setInterval(() => this.checkStale(Date.now()), Math.max(25, Math.min(1000, staleMs / 4)));
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.deps.config.FEED_URL!, { handshakeTimeout: 5000 });
    this.socket = ws;
    ws.on('open', () => {
      this.status.connected = true;
      this.status.connects++;
      this.since = Date.now();
      this.deps.log.info({ url: this.deps.config.FEED_URL }, 'price feed connected');
    });
    ws.on('message', (data) => this.onMessage(data.toString()));
    ws.on('error', (err) => this.deps.log.warn({ err: err.message }, 'price feed error'));
    ws.on('close', () => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.status.connected = false;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.attempt);
    this.attempt++;
    this.deps.log.info({ delay }, 'price feed reconnecting');
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private onMessage(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.deps.log.warn('price feed: message is not JSON');
      return;
    }
    const now = Date.now();
    this.status.lastMessageAt = now;
    this.attempt = 0;
    if (this.status.stale) {
      this.status.stale = false;
      this.deps.log.info('price feed recovered');
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) this.publish(item as Record<string, unknown>, now);
  }

  private publish(item: Record<string, unknown>, now: number): void {
    if (!item || typeof item !== 'object') return;
    const external = String(item.symbol ?? item.code ?? item.s ?? '');
    const code = this.symbolMap ? this.symbolMap.get(external) : external.toUpperCase();
    const symbol = code ? this.deps.market.symbolByCode(code) : undefined;
    const bid = priceOf(item.bid ?? item.b);
    const ask = priceOf(item.ask ?? item.a);
    if (!symbol || !bid || !ask) return;
    const volume = priceOf(item.volume ?? item.v) ?? undefined;
    const sourceTime = sourceTimeOf(item.time ?? item.ts ?? item.t);
    this.deps.market.publishTick({ symbolId: symbol.id, bid, ask, volume, time: now, ...(sourceTime === undefined ? {} : { sourceTime }) });
  }

  private checkStale(now: number): void {
    const last = Math.max(this.status.lastMessageAt ?? 0, this.since);
    if (this.status.stale || now - last <= this.deps.config.FEED_STALE_MS) return;
    this.status.stale = true;
    this.deps.log.warn({ silentMs: now - last, url: this.deps.config.FEED_URL }, 'price feed is stale');
    // A silent connection is often half-open: drop it and let the reconnect loop try again.
    if (this.socket) this.socket.terminate();
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.staleTimer) clearInterval(this.staleTimer);
    const ws = this.socket;
    this.socket = null;
    this.status.connected = false;
    ws?.terminate();
  }
}
