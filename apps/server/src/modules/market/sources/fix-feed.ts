import {
  AsciiSession,
  describeSession,
  engineLogs,
  fixTime,
  type EngineFactory,
  type IJsFixConfig,
  MsgType,
  type MsgView,
  SessionLauncher,
  SessionState,
} from './fix-engine.ts';
import type { FixSessionConfig } from '../../../fix-config.ts';
import type { FixOrderGateway, FixOrderReport, FixOrderRequest, FixSessionStatus, PriceSource, SourceDeps } from './price-source.ts';
import { FixRouter, type FixSymbolRoute } from './fix-router.ts';

export type { FixSessionStatus } from './price-source.ts';

const PRICE = /^\d+(\.\d+)?$/;

/**
 * The engine's states of a session that is logged on: the engine moves to ActiveNormalSession only
 * at the first application message, and leaves it while it handles a resend or a test request.
 */
const LOGGED_ON = new Set<SessionState>([
  SessionState.InitiationLogonReceived,
  SessionState.InitiationLogonResponse,
  SessionState.ActiveNormalSession,
  SessionState.HandleResendRequest,
  SessionState.ReceiveMsgSeqNumTooHigh,
  SessionState.AwaitingProcessingResponseToResendRequest,
  SessionState.NoMessagesReceivedInInterval,
  SessionState.AwaitingProcessingResponseToTestRequest,
]);

interface Side {
  bid?: string;
  ask?: string;
}

/** One initiator: logs on, asks for top of book of its symbols, and feeds each change into the quote pipeline. */
class FixMarketDataSession {
  readonly status: FixSessionStatus;
  /** The provider's symbol name -> our code. */
  private readonly codes: Map<string, string>;
  private readonly books = new Map<string, Side>();
  private launcher: SessionLauncher | null = null;
  /** Between our onReady (the logon answered) and the session's end. */
  private logged = false;
  client: MarketDataClient | null = null;
  stopped = false;

  constructor(
    readonly cfg: FixSessionConfig,
    primary: boolean,
    private readonly deps: SourceDeps,
    private readonly router: FixRouter,
    private readonly reports: (report: FixOrderReport) => void = () => {},
  ) {
    this.codes = new Map(Object.entries(cfg.symbols).map(([ours, theirs]) => [theirs, ours]));
    this.status = {
      name: cfg.name,
      primary,
      loggedOn: false,
      lastMessageAt: null,
      inSeqNum: 0,
      outSeqNum: 0,
      gaps: 0,
      reconnects: 0,
      logons: 0,
      heartbeats: 0,
      quotes: 0,
    };
  }

  start(): void {
    this.stopped = false;
    const session = this.cfg;
    const owner = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the engine builds the client
    class Launcher extends SessionLauncher {
      constructor() {
        super(
          describeSession(session, 'initiator'),
          null,
          engineLogs(owner.deps.log, session.name, () => owner.stopped),
        );
      }
      protected override makeFactory(): EngineFactory {
        return {
          makeSession: (c: IJsFixConfig) => {
            owner.client = new MarketDataClient(c, owner);
            return owner.client;
          },
        };
      }
    }
    this.launcher = new Launcher();
    this.launcher.run().catch((err: unknown) => {
      if (!this.stopped) this.deps.log.error({ err, fix: session.name }, 'FIX session ended');
    });
    this.deps.log.info({ fix: session.name, host: session.host, port: session.port }, 'FIX session connecting');
  }

  stop(): void {
    this.stopped = true;
    this.logged = false;
    this.status.loggedOn = false;
    this.router.sessionDown(this.cfg.name);
    this.launcher?.stop();
    this.launcher = null;
  }

  /** The engine's sequence numbers, read when asked (health, metrics). */
  refresh(): FixSessionStatus {
    const c = this.client;
    if (c) {
      this.status.loggedOn = !this.stopped && this.logged && LOGGED_ON.has(c.getState());
      this.status.inSeqNum = c.lastPeerSeqNum();
      this.status.outSeqNum = c.lastSentSeqNum();
    }
    return { ...this.status };
  }

  loggedOn(): void {
    if (this.status.logons > 0) this.status.reconnects++;
    this.status.logons++;
    this.logged = true;
    this.status.loggedOn = true;
    this.books.clear();
    this.deps.log.info({ fix: this.cfg.name, reconnects: this.status.reconnects }, 'FIX session logged on');
  }

  loggedOff(): void {
    if (!this.logged) return;
    this.logged = false;
    this.status.loggedOn = false;
    this.router.sessionDown(this.cfg.name);
    if (!this.stopped) this.deps.log.warn({ fix: this.cfg.name }, 'FIX session logged off');
  }

  received(msgType: string): void {
    this.status.lastMessageAt = Date.now();
    if (msgType === MsgType.Heartbeat) this.status.heartbeats++;
  }

  gap(expected: number, received: number): void {
    this.status.gaps++;
    this.deps.log.warn({ fix: this.cfg.name, expected, received }, 'FIX sequence gap: resend requested');
  }

  request(): Record<string, unknown> {
    return {
      MDReqID: `${this.cfg.name}-${this.status.logons}`,
      SubscriptionRequestType: '1',
      MarketDepth: 1,
      MDUpdateType: 1,
      MDReqGrp: { NoMDEntryTypes: [{ MDEntryType: '0' }, { MDEntryType: '1' }] },
      InstrmtMDReqGrp: { NoRelatedSym: [...this.codes.keys()].map((Symbol) => ({ Instrument: { Symbol } })) },
    };
  }

  /**
   * W: a whole top of book for one symbol; X: changes, possibly of several symbols. Each symbol the
   * message changed becomes one quote, timed by the newest of its entries' times in this message.
   */
  marketData(msgType: string, view: MsgView): void {
    const sent = fixTime(view.getString('SendingTime'));
    const changed = new Map<string, number | undefined>();
    const take = (symbol: string, book: Side, entry: MsgView, action: string | null) => {
      if (!this.applyEntry(book, entry, action)) return;
      const at = entryTime(entry, sent);
      const before = changed.get(symbol);
      changed.set(symbol, at === undefined ? before : Math.max(before ?? 0, at));
    };
    if (msgType === MsgType.MarketDataSnapshotFullRefresh) {
      const symbol = view.getString('Symbol');
      if (!symbol) return;
      const book: Side = {};
      this.books.set(symbol, book);
      changed.set(symbol, undefined);
      const group = view.getView('NoMDEntries');
      for (let i = 0; group && i < group.groupCount(); i++) {
        const entry = group.getGroupInstance(i);
        if (entry) take(symbol, book, entry, null);
      }
    } else if (msgType === MsgType.MarketDataIncrementalRefresh) {
      const group = view.getView('NoMDEntries');
      for (let i = 0; group && i < group.groupCount(); i++) {
        const entry = group.getGroupInstance(i);
        const symbol = entry?.getString('Symbol');
        if (!entry || !symbol) continue;
        const book = this.books.get(symbol) ?? {};
        this.books.set(symbol, book);
        take(symbol, book, entry, entry.getString('MDUpdateAction'));
      }
    } else if (msgType === MsgType.MarketDataRequestReject) {
      this.deps.log.warn({ fix: this.cfg.name, reason: view.getString('Text') }, 'FIX market data request refused');
      return;
    } else return;
    for (const [symbol, at] of changed) this.publish(symbol, at ?? sent);
  }

  /** A bid or offer entry: new or changed (a price), or deleted (MDUpdateAction 2). False for anything else. */
  private applyEntry(book: Side, entry: MsgView, action: string | null): boolean {
    const type = entry.getString('MDEntryType');
    if (type !== '0' && type !== '1') return false;
    const side = type === '0' ? 'bid' : 'ask';
    if (action === '2') {
      delete book[side];
      return true;
    }
    const px = entry.getString('MDEntryPx')?.trim() ?? '';
    if (!PRICE.test(px)) return false;
    book[side] = px;
    return true;
  }

  /** A NewOrderSingle (D) in the provider's symbol name; false when not logged on or the symbol is not this session's. */
  sendOrder(o: FixOrderRequest): boolean {
    const symbol = this.cfg.symbols[o.symbol];
    if (!this.up() || !this.client || symbol === undefined) return false;
    this.client.order({
      ClOrdID: o.clOrdId,
      Instrument: { Symbol: symbol },
      Side: o.side === 'buy' ? '1' : '2',
      TransactTime: new Date(),
      OrderQtyData: { OrderQty: o.quantity },
      ...(o.limitPrice === undefined ? { OrdType: '1' } : { OrdType: '2', Price: o.limitPrice, TimeInForce: '3' }),
    });
    return true;
  }

  /** An ExecutionReport (8) or OrderCancelReject (9), handed on as read. */
  orderReport(msgType: string, view: MsgView): void {
    const str = (tag: string) => view.getString(tag)?.trim() || null;
    const clOrdId = str('ClOrdID');
    if (!clOrdId) return;
    this.reports({
      session: this.cfg.name,
      kind: msgType === MsgType.ExecutionReport ? 'execution' : 'cancel_reject',
      clOrdId,
      orderId: str('OrderID'),
      execId: str('ExecID'),
      execType: str('ExecType'),
      ordStatus: str('OrdStatus'),
      lastPx: str('LastPx'),
      lastQty: str('LastQty'),
      avgPx: str('AvgPx'),
      cumQty: str('CumQty'),
      leavesQty: str('LeavesQty'),
      text: str('Text'),
    });
  }

  /** Whether this session's quotes can count as live (logged on, not stopped). */
  up(): boolean {
    return !this.stopped && this.logged;
  }

  private publish(symbolName: string, sourceTime: number | undefined): void {
    const book = this.books.get(symbolName);
    const code = this.codes.get(symbolName);
    if (!book?.bid || !book.ask || !code || !this.deps.market.symbolByCode(code)) return;
    this.status.quotes++;
    this.router.quote(this.cfg.name, code, book.bid, book.ask, sourceTime);
  }
}

/** An entry's MDEntryDate/MDEntryTime (the date of SendingTime when it gives a time only); undefined without a time. */
function entryTime(entry: MsgView, sent: number | undefined): number | undefined {
  const time = entry.getString('MDEntryTime');
  if (!time) return undefined;
  const date =
    entry.getString('MDEntryDate') ?? (sent === undefined ? null : new Date(sent).toISOString().slice(0, 10).replaceAll('-', ''));
  return fixTime(date, time);
}

/** The engine's session object: it keeps the FIX session rules, this class only hears what the feed needs. */
class MarketDataClient extends AsciiSession {
  constructor(
    config: IJsFixConfig,
    private readonly feed: FixMarketDataSession,
  ) {
    super(config);
  }

  protected override onReady(): void {
    this.feed.loggedOn();
    this.send(MsgType.MarketDataRequest, this.feed.request());
  }

  /** Sends a NewOrderSingle (D). */
  order(body: Record<string, unknown>): void {
    this.send(MsgType.NewOrderSingle, body);
  }

  protected override onApplicationMsg(msgType: string, view: MsgView): void {
    if (msgType === MsgType.ExecutionReport || msgType === MsgType.OrderCancelReject) this.feed.orderReport(msgType, view);
    else this.feed.marketData(msgType, view);
  }

  protected override onDecoded(msgType: string): void {
    this.feed.received(msgType);
  }

  protected override onEncoded(): void {}

  protected override onStopped(): void {
    this.feed.loggedOff();
  }

  protected override onLogon(): boolean {
    return true;
  }

  protected override sendResendRequest(lastSeq: number, receivedSeq: number): void {
    this.feed.gap(lastSeq + 1, receivedSeq);
    super.sendResendRequest(lastSeq, receivedSeq);
  }

  protected override onPrepareForReconnect(): void {
    this.feed.loggedOff();
    super.onPrepareForReconnect();
  }
}

/**
 * FIX 4.4 market data from every session of FIX_CONFIG at once (docs/fix.md), loaded by FixSource;
 * the router makes one price per symbol from them (failover or best, the config's `mode`).
 */
export class FixFeedSource implements PriceSource {
  readonly name = 'fix';
  private readonly fixSessions: FixMarketDataSession[];
  private readonly router: FixRouter;

  constructor(deps: SourceDeps) {
    const fix = deps.config.fix;
    if (!fix) throw new Error('PRICE_SOURCE=fix needs FIX_CONFIG');
    const byName = new Map<string, FixMarketDataSession>();
    this.router = new FixRouter(
      fix.mode,
      fix.sessions.map((s) => s.name),
      deps.market,
      (name) => byName.get(name)?.up() ?? false,
      fix.sessions.flatMap((s) => Object.keys(s.symbols)),
    );
    this.fixSessions = fix.sessions.map(
      (s, i) => new FixMarketDataSession(s, i === 0, deps, this.router, (r) => this.reportListeners.forEach((l) => l(r))),
    );
    for (const s of this.fixSessions) byName.set(s.cfg.name, s);
    const session = (name: string) => byName.get(name);
    this.gateway = {
      sessionNames: () => fix.sessions.map((s) => s.name),
      canSend: (name) => session(name)?.up() ?? false,
      quotes: (name, code) => session(name)?.cfg.symbols[code] !== undefined,
      send: (order) => session(order.session)?.sendOrder(order) ?? false,
      onReport: (listener) => void this.reportListeners.push(listener),
    };
  }

  private readonly reportListeners: Array<(report: FixOrderReport) => void> = [];
  private readonly gateway: FixOrderGateway;

  /** The sessions' order side (only while running). */
  orders(): FixOrderGateway | null {
    return this.running ? this.gateway : null;
  }

  private running = false;

  start(): void {
    this.running = true;
    this.router.start();
    for (const s of this.fixSessions) s.start();
  }

  stop(): void {
    this.running = false;
    this.router.stop();
    for (const s of this.fixSessions) s.stop();
  }

  /** Per symbol, the providers its price comes from now (only while running). */
  routes(): FixSymbolRoute[] {
    return this.running ? this.router.routes() : [];
  }

  /** Only while running: a follower builds the source but never starts it. */
  sessions(): FixSessionStatus[] {
    return this.running ? this.fixSessions.map((s) => s.refresh()) : [];
  }
}
