import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type WebSocket from 'ws';
import { type SessionEndReason, WsTopic } from '@tp/contract/constants';
import { pushMessage, type ServerMessageOf } from '@tp/contract/pushes';
import { API_DEFAULT_LANG, normalizeLang } from '@tp/contract/languages';
import { socket } from '@tp/contract/endpoints/platform';
import type { AppContext, AuthStaff, AuthUser } from '../context.ts';
import { t } from '../http/i18n.ts';
import { clientKey } from '../http/client-key.ts';
import { BusChannels, type SessionEnded } from '../platform/bus-channels.ts';
import type { ReplayBatch } from '../platform/push-journal.ts';
import { CLOSE_POLICY, CLOSE_TOO_SLOW, ClientConnection } from './client-connection.ts';
import { FlushScheduler } from './flush-scheduler.ts';
import { jsonFrame } from './frames.ts';
import { handleClientMessage, type ProtocolHost } from './protocol.ts';
import { TopicFeed } from './topic-feed.ts';
import { isAnnouncement, isStaffTopic, isUserTopic, STAFF_TOPICS } from './topics.ts';

/** What the gateway needs from the market: topic validation and the current state for new subscribers. */
export interface MarketSnapshots {
  symbolExists(code: string): boolean;
  /** Announces market status changes still waiting for the status timer (a new DAY_MARKET subscriber is about to get the quotes). */
  refreshStatus(): void;
  /** Current DAY_MARKET message of every visible symbol. */
  dayMarket(): { symbol: string; message: DayMarketMessage }[];
  /** Current KLINE message of every period of one symbol. */
  kline(code: string): { period: string; message: KlineMessage }[];
  /** Top of book of one symbol (MARKET_DEPTH.{code}), built from a DAY_MARKET message; null when unknown. */
  depth(code: string, dayMarket?: DayMarketMessage): ServerMessageOf<'MARKET_DEPTH'> | null;
}

type DayMarketMessage = ServerMessageOf<'DAY_MARKET'>;
type KlineMessage = ServerMessageOf<'KLINE'>;
/** What trading and support publish on a user's bus channel: that user's pushes. */
type UserPush = ServerMessageOf<'FOREX_TRADE' | 'FOREX_CLOSED' | 'NOTICE' | 'ALERT' | 'CHAT'>;

const IDLE_TIMEOUT_MS = 60_000;
const DROP_GRACE_MS = 2_000;
/** Passes run at least this often (slow-client drops, idle sockets, expired sessions), quotes or not. */
const HOUSEKEEPING_MS = 250;
/** How often a server with subscribers to an on-demand staff feed says it still wants it. */
const STAFF_WANTED_MS = 1_000;

/** A close reason fits in 123 bytes of UTF-8. */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

/**
 * The /v1/ws gateway: protocol of PROTOCOL.md, topic index, one serialization per bus message,
 * quotes coalesced per client and flushed in sliced passes at an adaptive cadence (shared bytes for
 * clients that keep up; newest quote per symbol for a client that is backed up), and the
 * slow-client and per-IP limits.
 */
export class WsGateway implements ProtocolHost {
  readonly connections = new Set<ClientConnection>();
  /** Counters; `writes` and `bytes` count the quote batches written by the flush passes. */
  readonly stats = { accepted: 0, refused: 0, dropped: 0, frames: 0, writes: 0, bytes: 0 };
  private readonly perIp = new Map<string, number>();
  private readonly users = new Map<number, { conns: Set<ClientConnection>; off: () => void }>();
  /** Quote topics (DAY_MARKET, KLINE.{code}) with the newest frame of each symbol or period. */
  private readonly feeds = new Map<string, TopicFeed>();
  private readonly offBus: (() => void)[] = [];
  /** Staff topics with their connections, the bus subscription feeding them and the demand heartbeat. */
  private readonly staffFeeds = new Map<string, { conns: Set<ClientConnection>; off: () => void; beat: NodeJS.Timeout | null }>();
  /** Logged-in connections by session id, so the end of a session reaches each of them. */
  private readonly bySession = new Map<number, Set<ClientConnection>>();
  readonly flusher: FlushScheduler<ClientConnection>;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly ctx: AppContext,
    readonly market: MarketSnapshots,
  ) {
    this.flusher = new FlushScheduler(
      () => this.connections,
      (conn, now) => this.flushClient(conn, now),
      ctx.config.WS_FLUSH_MS,
    );
  }

  register(app: FastifyInstance): void {
    this.offBus.push(
      this.ctx.bus.subscribe(BusChannels.dayMarket, (m) => this.broadcastQuote(m as DayMarketMessage)),
      this.ctx.bus.subscribe(BusChannels.kline, (m) => this.broadcastKline(m as KlineMessage)),
      this.ctx.bus.subscribe(BusChannels.sessionEnded, (m) => this.sessionsEnded(m as SessionEnded)),
    );
    app.get(socket.path, { websocket: true, config: { rateLimit: false }, schema: { hide: true } }, (ws, req) => this.accept(ws, req));
    app.addHook('onClose', async () => this.stop());
  }

  private accept(ws: WebSocket, req: FastifyRequest): void {
    const ip = clientKey(req.ip);
    // As on HTTP: the language the client names (query or header), English when it names none.
    const sent = ((req.query as Record<string, string>)?.lang ?? req.headers.lang) as string | undefined;
    const lang = typeof sent === 'string' && sent.trim() ? normalizeLang(sent) : API_DEFAULT_LANG;
    const count = this.perIp.get(ip) ?? 0;
    if (count >= this.ctx.config.WS_MAX_CONNECTIONS_PER_IP) {
      this.stats.refused++;
      ws.close(CLOSE_POLICY, closeReason(t(lang, 'ws_too_many_connections')));
      return;
    }
    this.perIp.set(ip, count + 1);
    const conn = new ClientConnection(ws, req.raw.socket as Socket, ip, lang);
    conn.address = req.ip;
    this.connections.add(conn);
    this.stats.accepted++;
    ws.on('message', (data, isBinary) => {
      const now = Date.now();
      conn.lastSeen = now;
      if (conn.dropping) return;
      // A client's messages cost this server's one thread: over its rate, or with too many waiting to
      // be handled, it is closed before any of them is read further.
      if (!conn.takeMessage(now, this.ctx.config.WS_MAX_MESSAGES_PER_SECOND)) return this.misuse(conn, 'ws_too_many_messages');
      if (conn.pending >= this.ctx.config.WS_MAX_QUEUED_MESSAGES) return this.misuse(conn, 'ws_too_many_messages');
      conn.pending++;
      const text = isBinary ? null : data.toString();
      conn.queue = conn.queue
        .then(() => handleClientMessage(this, conn, text))
        .catch((err: unknown) => this.ctx.log.error({ err }, 'socket message failed'))
        .finally(() => conn.pending--);
    });
    ws.on('close', () => this.forget(conn));
    ws.on('error', () => undefined);
    this.timer ??= setInterval(() => this.flusher.request(), HOUSEKEEPING_MS);
  }

  private forget(conn: ClientConnection): void {
    if (!this.connections.delete(conn)) return;
    const n = (this.perIp.get(conn.ip) ?? 1) - 1;
    if (n > 0) this.perIp.set(conn.ip, n);
    else this.perIp.delete(conn.ip);
    for (const topic of [...conn.subscriptions]) this.unsubscribe(conn, topic);
    this.unwatchUser(conn, true);
    this.untrack(conn);
    if (this.connections.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Puts a login on a connection; a login of another user drops the previous user's topics. */
  logIn(conn: ClientConnection, who: { user: AuthUser } | { staff: AuthStaff }): void {
    const user = 'user' in who ? who.user : null;
    if (user && conn.user?.id === user.id) this.untrack(conn);
    else this.logOut(conn);
    conn.user = user;
    conn.staff = 'staff' in who ? who.staff : null;
    // A logged-in connection gets its user's announcements (NOTICE, ALERT) without subscribing.
    if (user) this.watchUser(conn);
    const sessionId = (conn.user ?? conn.staff)!.sessionId;
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(conn);
  }

  /** Ends the login on a connection; with a reason, tells the client its session ended. */
  logOut(conn: ClientConnection, reason?: SessionEndReason): void {
    for (const topic of [...conn.subscriptions]) if (isUserTopic(topic) || isStaffTopic(topic)) this.unsubscribe(conn, topic);
    this.unwatchUser(conn, true);
    this.untrack(conn);
    conn.user = null;
    conn.staff = null;
    if (reason) conn.write(jsonFrame(pushMessage('session_ended', { reason, msg: t(conn.lang, `ws_session_${reason}`) })));
  }

  private untrack(conn: ClientConnection): void {
    const sessionId = (conn.user ?? conn.staff)?.sessionId;
    const set = sessionId === undefined ? undefined : this.bySession.get(sessionId);
    if (!set) return;
    set.delete(conn);
    if (set.size === 0) this.bySession.delete(sessionId!);
  }

  /** Sessions ended on any server (logout, password change, disabled account): their sockets stop at once. */
  private sessionsEnded(message: SessionEnded): void {
    for (const id of message.sessionIds ?? []) for (const conn of [...(this.bySession.get(id) ?? [])]) this.logOut(conn, message.reason);
  }

  /** Pushes go to a live session only: one past its expiry is ended first. */
  private isLive(conn: ClientConnection, now = Date.now()): boolean {
    const login = conn.user ?? conn.staff;
    if (!login) return false;
    if (new Date(login.expiresAt).getTime() > now) return true;
    this.logOut(conn, 'expired');
    return false;
  }

  subscribe(conn: ClientConnection, topic: string): void {
    conn.subscriptions.add(topic);
    if (isUserTopic(topic)) this.watchUser(conn);
    else if (isStaffTopic(topic)) this.watchStaffTopic(conn, topic);
    else {
      if (topic === WsTopic.DAY_MARKET) this.market.refreshStatus();
      conn.follow(this.feedOf(topic));
      this.flusher.request();
    }
  }

  unsubscribe(conn: ClientConnection, topic: string): void {
    conn.subscriptions.delete(topic);
    const feed = this.feeds.get(topic);
    if (feed) conn.unfollow(feed);
    else if (isStaffTopic(topic)) this.unwatchStaffTopic(conn, topic);
    else this.unwatchUser(conn);
  }

  /**
   * Staff topics get their bus channel's messages, from any server: every stored chat message
   * (SUPPORT), the dealer's desk (DESK, published only while some server says it has listeners).
   */
  private watchStaffTopic(conn: ClientConnection, topic: string): void {
    const def = STAFF_TOPICS[topic]!;
    let feed = this.staffFeeds.get(topic);
    if (!feed) {
      const conns = new Set<ClientConnection>();
      const off = this.ctx.bus.subscribe(def.channel, (m) => {
        const frame = jsonFrame(m as ServerMessageOf<'SUPPORT' | 'DESK'>);
        for (const c of [...conns]) if (this.isLive(c)) c.write(frame);
      });
      this.staffFeeds.set(topic, (feed = { conns, off, beat: null }));
    }
    feed.conns.add(conn);
    if (def.wanted && !feed.beat) {
      const wanted = def.wanted;
      this.ctx.bus.publish(wanted, { at: Date.now() });
      feed.beat = setInterval(() => this.ctx.bus.publish(wanted, { at: Date.now() }), STAFF_WANTED_MS);
      feed.beat.unref();
    }
  }

  private unwatchStaffTopic(conn: ClientConnection, topic: string): void {
    const feed = this.staffFeeds.get(topic);
    if (!feed) return;
    feed.conns.delete(conn);
    if (feed.conns.size) return;
    feed.off();
    if (feed.beat) clearInterval(feed.beat);
    this.staffFeeds.delete(topic);
  }

  /** Subscribes to a user's bus channel while one of their connections wants their pushes. */
  private watchUser(conn: ClientConnection): void {
    const userId = conn.user!.id;
    let entry = this.users.get(userId);
    if (!entry) {
      const conns = new Set<ClientConnection>();
      const off = this.ctx.bus.subscribe(BusChannels.userChannel(userId), (m) => this.forwardUserPush(conns, m as UserPush));
      this.users.set(userId, (entry = { conns, off }));
    }
    entry.conns.add(conn);
  }

  /** Stops a user's pushes to a connection when it logs out or goes away (while logged in, announcements keep coming). */
  private unwatchUser(conn: ClientConnection, loggingOut = false): void {
    if (!conn.user || !loggingOut) return;
    const entry = this.users.get(conn.user.id);
    if (!entry) return;
    entry.conns.delete(conn);
    if (entry.conns.size === 0) {
      entry.off();
      this.users.delete(conn.user.id);
    }
  }

  /**
   * User pushes go out at once and in order. Only for a backed-up client does FOREX_TRADE (a full
   * account snapshot) wait and coalesce; FOREX_CLOSED is an event and is always written, after any
   * snapshot still waiting, so the order the client sees stays true.
   */
  private forwardUserPush(conns: Set<ClientConnection>, message: UserPush): void {
    const topic = message?.type;
    if (!topic) return;
    const announcement = isAnnouncement(topic);
    if (!announcement && !isUserTopic(topic)) return;
    const frame = jsonFrame(message);
    const seq = 'seq' in message && typeof message.seq === 'number' ? message.seq : undefined;
    for (const conn of [...conns]) {
      if ((!announcement && !conn.subscriptions.has(topic)) || !this.isLive(conn)) continue;
      if (topic === WsTopic.FOREX_TRADE && conn.buffered > this.ctx.config.WS_MAX_BUFFERED_BYTES) {
        conn.heldTrade = frame;
        this.flusher.request();
        continue;
      }
      if (conn.replayHeld && seq !== undefined) {
        conn.replayHeld.push({ seq, frame });
        continue;
      }
      const waiting = conn.heldTrade;
      conn.heldTrade = null;
      if (waiting) conn.write(waiting);
      conn.write(frame);
      this.stats.frames += waiting ? 2 : 1;
    }
  }

  private broadcastQuote(message: DayMarketMessage): void {
    this.feedOf(WsTopic.DAY_MARKET).put(message.symbol, jsonFrame(message));
    // The top of book follows each quote, for the symbols someone watches.
    const depthFeed = this.feeds.get(`${WsTopic.MARKET_DEPTH_PREFIX}${message.symbol}`);
    const depth = depthFeed && this.market.depth(message.symbol, message);
    if (depthFeed && depth) depthFeed.put('top', jsonFrame(depth));
    if (this.connections.size) this.flusher.request();
  }

  private broadcastKline(message: KlineMessage): void {
    this.feedOf(`${WsTopic.KLINE_PREFIX}${message.symbol}`).put(message.kline.Period, jsonFrame(message));
    if (this.connections.size) this.flusher.request();
  }

  /** A quote topic's feed, started from the market's current quotes or forming bars. */
  private feedOf(topic: string): TopicFeed {
    let feed = this.feeds.get(topic);
    if (!feed) {
      feed = new TopicFeed();
      this.feeds.set(topic, feed);
      if (topic === WsTopic.DAY_MARKET) {
        for (const { symbol, message } of this.market.dayMarket()) feed.put(symbol, jsonFrame(message));
      } else if (topic.startsWith(WsTopic.MARKET_DEPTH_PREFIX)) {
        const depth = this.market.depth(topic.slice(WsTopic.MARKET_DEPTH_PREFIX.length));
        if (depth) feed.put('top', jsonFrame(depth));
      } else {
        for (const { period, message } of this.market.kline(topic.slice(WsTopic.KLINE_PREFIX.length))) feed.put(period, jsonFrame(message));
      }
    }
    return feed;
  }

  /**
   * One client's share of a pass: what waits goes out as one write, unless the socket still holds
   * unsent bytes (then its quotes keep coalescing, newest per symbol); a client that stays backed up
   * beyond the limit, or silent, is dropped.
   */
  private flushClient(conn: ClientConnection, now: number): void {
    if (conn.dropping) return;
    if (now - conn.checkedAt >= HOUSEKEEPING_MS) {
      conn.checkedAt = now;
      if (conn.user ?? conn.staff) this.isLive(conn, now);
      if (now - conn.lastSeen > IDLE_TIMEOUT_MS) {
        conn.ws.terminate();
        return;
      }
    }
    const buffered = conn.buffered;
    if (buffered > this.ctx.config.WS_MAX_BUFFERED_BYTES) {
      conn.slowSince ||= now;
      if (now - conn.slowSince > this.ctx.config.WS_SLOW_CLIENT_MS) this.drop(conn, CLOSE_TOO_SLOW, 'ws_too_slow');
      return;
    }
    conn.slowSince = 0;
    if (buffered > 0) return;
    const sent = conn.flush();
    if (sent.frames) {
      this.stats.frames += sent.frames;
      this.stats.writes++;
      this.stats.bytes += sent.bytes;
    }
  }

  /**
   * The kept NOTICE and FOREX_CLOSED pushes after `after`, to this connection only (FOREX_CLOSED if it
   * subscribed, as live). Live ones that come while the journal is read are held and follow, each
   * once, so the client gets every push in order.
   */
  async replay(conn: ClientConnection, after: number): Promise<{ complete: boolean; count: number } | null> {
    const userId = conn.user!.id;
    conn.replayHeld = [];
    let batch: ReplayBatch;
    try {
      batch = await this.ctx.pushJournal.replay(userId, after);
    } catch (err) {
      this.releaseHeld(conn, after);
      throw err;
    }
    if (conn.user?.id !== userId || !this.isLive(conn)) {
      conn.replayHeld = null;
      return null;
    }
    let last = after;
    let count = 0;
    for (const push of batch.pushes) {
      last = Math.max(last, push.seq ?? last);
      if (push.type === WsTopic.FOREX_CLOSED && !conn.subscriptions.has(push.type)) continue;
      conn.write(jsonFrame(push));
      count++;
    }
    this.stats.frames += count;
    this.releaseHeld(conn, last);
    return { complete: batch.complete, count };
  }

  /** Ends a replay: the live pushes held meanwhile go out, but for those the replay already sent. */
  private releaseHeld(conn: ClientConnection, sentUpTo: number): void {
    const held = conn.replayHeld ?? [];
    conn.replayHeld = null;
    for (const { seq, frame } of held) if (seq > sentUpTo) conn.write(frame);
  }

  /** A login with a token that resolves to no session: a few are a mistake, more are guessing. */
  loginFailed(conn: ClientConnection): void {
    if (++conn.failedLogins >= this.ctx.config.WS_MAX_FAILED_LOGINS) this.misuse(conn, 'ws_too_many_failed_logins');
  }

  /** Closes a client that broke a budget: its misuse, logged at warn (a server fault is an error). */
  private misuse(conn: ClientConnection, key: string): void {
    if (conn.dropping) return;
    this.ctx.log.warn({ ip: conn.ip, userId: conn.user?.id, why: key }, 'socket client over its budget');
    // Read nothing more from it: what it already sent would otherwise still be parsed frame by frame.
    conn.ws.pause();
    this.drop(conn, CLOSE_POLICY, key);
  }

  /** Closes a connection with a reason; if the client does not answer the close, cuts it. */
  drop(conn: ClientConnection, code: number, key: string): void {
    this.stats.dropped++;
    this.ctx.log.info({ ip: conn.ip, userId: conn.user?.id, buffered: conn.buffered }, 'socket client dropped');
    conn.ws.close(code, closeReason(t(conn.lang, key)));
    conn.dropping = true;
    setTimeout(() => conn.ws.terminate(), DROP_GRACE_MS).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flusher.stop();
    for (const off of this.offBus.splice(0)) off();
    for (const feed of this.staffFeeds.values()) {
      feed.off();
      if (feed.beat) clearInterval(feed.beat);
    }
    this.staffFeeds.clear();
    for (const { off } of this.users.values()) off();
    this.users.clear();
  }
}
