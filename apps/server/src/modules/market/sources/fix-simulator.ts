import type { Logger } from 'pino';
import { dec } from '@tp/contract/decimal';
import {
  AsciiSession,
  describeSession,
  engineLogs,
  type EngineFactory,
  type IJsFixConfig,
  MsgType,
  type MsgView,
  SessionLauncher,
} from './fix-engine.ts';
import type { FixSessionConfig } from '../../../fix-config.ts';

/** One top-of-book quote in the provider's symbol name; time (epoch ms) is stamped as MDEntryDate/MDEntryTime when given. */
export interface SimQuote {
  symbol: string;
  bid: string;
  ask: string;
  time?: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const fixDate = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
const fixTimeOnly = (d: Date) =>
  `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;

/** How the simulator answers orders (NewOrderSingle); change it at any time (`sim.orders`). */
export interface SimOrderBehaviour {
  /** Wait before answering, in ms. */
  latencyMs: number;
  /** Fill only this share of each order (e.g. '0.5'), the rest cancelled (IOC); null: fill it all. */
  partial: string | null;
  /** Reject every order with this text; null: accept. */
  reject: string | null;
  /** Answer nothing (the client's timeout). */
  silent: boolean;
  /** Cut the connection when an order arrives, without answering. */
  disconnect: boolean;
  /** Fill at this price instead of the current quote (a provider that moved). */
  price: string | null;
}

/** An order the simulator received. */
export interface SimOrder {
  clOrdId: string;
  symbol: string;
  side: string;
  quantity: string;
  ordType: string;
  price: string | null;
  timeInForce: string | null;
}

/**
 * A FIX 4.4 liquidity provider for tests and local runs: accepts the logon of the session described
 * by a FIX_CONFIG entry (the same entry the server uses, seen from the other side), answers a
 * MarketDataRequest with a snapshot per symbol then sends incrementals as quotes are pushed. It can
 * drop its connections and skip outgoing sequence numbers, to exercise reconnects and gap fills.
 */
export class FixSimulator {
  private readonly quotes = new Map<string, SimQuote>();
  readonly sessions = new Set<ProviderSession>();
  readonly logons: Array<{ username: string; password: string }> = [];
  /** MsgType (35) of every message received, session messages included, in order. */
  readonly received: string[] = [];
  readonly requests: Array<{ symbols: string[]; subscriptionType: string | null; depth: string | null; entryTypes: string[] }> = [];
  /** How orders are answered (fills at the current quote by default: buys at the ask, sells at the bid). */
  orders: SimOrderBehaviour = { latencyMs: 0, partial: null, reject: null, silent: false, disconnect: false, price: null };
  /** Every NewOrderSingle received, in order. */
  readonly ordersReceived: SimOrder[] = [];
  private launcher: SessionLauncher | null = null;
  private entity: { acceptor?: { server?: { listening?: boolean } } } | null = null;

  constructor(
    readonly cfg: FixSessionConfig,
    private readonly log: Logger,
    quotes: SimQuote[] = [],
  ) {
    for (const q of quotes) this.quotes.set(q.symbol, q);
  }

  async start(): Promise<void> {
    const owner = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the engine builds the sessions
    class Launcher extends SessionLauncher {
      constructor() {
        super(null, describeSession(owner.cfg, 'acceptor'), engineLogs(owner.log, `${owner.cfg.name}-simulator`));
      }
      protected override makeFactory(): EngineFactory {
        return { makeSession: (c: IJsFixConfig) => new ProviderSession(c, owner) };
      }
      protected override async getAcceptor(container: Parameters<SessionLauncher['getAcceptor']>[0]): Promise<unknown> {
        const started = super.getAcceptor(container);
        owner.entity = (this as unknown as { acceptorEntity: typeof owner.entity }).acceptorEntity;
        return started;
      }
    }
    this.launcher = new Launcher();
    this.launcher.run().catch((err: unknown) => this.log.warn({ err }, 'FIX simulator ended'));
    const deadline = Date.now() + 5000;
    while (!this.entity?.acceptor?.server?.listening) {
      if (Date.now() > deadline) throw new Error(`FIX simulator: not listening on port ${this.cfg.port}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  stop(): void {
    for (const s of this.sessions) s.drop();
    this.launcher?.stop();
    this.launcher = null;
  }

  /** Sets a quote and sends it (X) to every session subscribed to its symbol. */
  push(quote: SimQuote): void {
    this.quotes.set(quote.symbol, quote);
    for (const s of this.sessions) s.incremental(quote);
  }

  quote(symbol: string): SimQuote | undefined {
    return this.quotes.get(symbol);
  }

  /** Cuts every connection at the socket, without a Logout, as a failing network would. */
  dropConnections(): void {
    for (const s of this.sessions) s.drop();
  }

  /** The next message of every session goes out `count` sequence numbers ahead: the client sees a gap. */
  skipSequenceNumbers(count: number): void {
    for (const s of this.sessions) s.skip(count);
  }

  loggedOn(): number {
    return [...this.sessions].filter((s) => s.ready).length;
  }
}

class ProviderSession extends AsciiSession {
  ready = false;
  private readonly subscribed = new Map<string, string>();

  constructor(
    config: IJsFixConfig,
    private readonly sim: FixSimulator,
  ) {
    super(config);
  }

  protected override onLogon(_view: MsgView, user: string, password: string): boolean {
    this.sim.logons.push({ username: user ?? '', password: password ?? '' });
    const cfg = this.sim.cfg;
    return (cfg.username ?? '') === (user ?? '') && (cfg.password ?? '') === (password ?? '');
  }

  protected override onReady(): void {
    this.ready = true;
    this.sim.sessions.add(this);
  }

  protected override onStopped(): void {
    this.ready = false;
    this.sim.sessions.delete(this);
  }

  protected override onDecoded(msgType: string): void {
    this.sim.received.push(msgType);
  }
  protected override onEncoded(): void {}

  protected override onApplicationMsg(msgType: string, view: MsgView): void {
    if (msgType === MsgType.NewOrderSingle) return this.order(view);
    if (msgType !== MsgType.MarketDataRequest) return;
    const id = view.getString('MDReqID') ?? '';
    const related = view.getView('NoRelatedSym');
    const types = view.getView('NoMDEntryTypes');
    const symbols: string[] = [];
    const entryTypes: string[] = [];
    for (let i = 0; related && i < related.groupCount(); i++) symbols.push(related.getGroupInstance(i)?.getString('Symbol') ?? '');
    for (let i = 0; types && i < types.groupCount(); i++) entryTypes.push(types.getGroupInstance(i)?.getString('MDEntryType') ?? '');
    this.sim.requests.push({
      symbols,
      subscriptionType: view.getString('SubscriptionRequestType'),
      depth: view.getString('MarketDepth'),
      entryTypes,
    });
    for (const symbol of symbols) {
      this.subscribed.set(symbol, id);
      const q = this.sim.quote(symbol);
      if (!q) continue;
      this.send(MsgType.MarketDataSnapshotFullRefresh, {
        MDReqID: id,
        Instrument: { Symbol: symbol },
        MDFullGrp: { NoMDEntries: [this.entry('0', q.bid, q.time), this.entry('1', q.ask, q.time)] },
      });
    }
  }

  incremental(q: SimQuote): void {
    const id = this.subscribed.get(q.symbol);
    if (!this.ready || id === undefined) return;
    const entry = (type: string, px: string) => ({
      MDUpdateAction: '1',
      ...this.entry(type, px, q.time),
      Instrument: { Symbol: q.symbol },
    });
    this.send(MsgType.MarketDataIncrementalRefresh, { MDReqID: id, MDIncGrp: { NoMDEntries: [entry('0', q.bid), entry('1', q.ask)] } });
  }

  private entry(type: string, px: string, time: number | undefined): Record<string, unknown> {
    const at = time === undefined ? null : new Date(time);
    return { MDEntryType: type, MDEntryPx: px, ...(at ? { MDEntryDate: fixDate(at), MDEntryTime: fixTimeOnly(at) } : {}) };
  }

  private seq = 0;

  /** A NewOrderSingle: answered as `sim.orders` says, filled at the current quote (a limit IOC only within its price). */
  private order(view: MsgView): void {
    const o: SimOrder = {
      clOrdId: view.getString('ClOrdID') ?? '',
      symbol: view.getString('Symbol') ?? '',
      side: view.getString('Side') ?? '',
      quantity: view.getString('OrderQty') ?? '0',
      ordType: view.getString('OrdType') ?? '',
      price: view.getString('Price'),
      timeInForce: view.getString('TimeInForce'),
    };
    this.sim.ordersReceived.push(o);
    const how = { ...this.sim.orders };
    if (how.disconnect) return this.drop();
    if (how.silent) return;
    const answer = () => {
      if (!this.ready) return;
      const orderId = `SIM-${++this.seq}`;
      const report = (execType: string, ordStatus: string, extra: Record<string, unknown>) =>
        this.send(MsgType.ExecutionReport, {
          OrderID: orderId,
          ExecID: `${orderId}-${execType}-${++this.seq}`,
          ClOrdID: o.clOrdId,
          ExecType: execType,
          OrdStatus: ordStatus,
          Instrument: { Symbol: o.symbol },
          Side: o.side,
          OrderQtyData: { OrderQty: o.quantity },
          TransactTime: new Date(),
          ...extra,
        });
      const q = this.sim.quote(o.symbol);
      if (how.reject !== null || !q) {
        report('8', '8', { OrdRejReason: 0, Text: how.reject ?? 'unknown symbol', LeavesQty: '0', CumQty: '0', AvgPx: '0' });
        return;
      }
      report('0', '0', { LeavesQty: o.quantity, CumQty: '0', AvgPx: '0' });
      const px = how.price ?? (o.side === '1' ? q.ask : q.bid);
      const beyond = o.ordType === '2' && o.price !== null && (o.side === '1' ? dec(px).gt(o.price) : dec(px).lt(o.price));
      const qty = beyond ? dec(0) : how.partial === null ? dec(o.quantity) : dec(o.quantity).mul(how.partial);
      if (qty.gt(0)) {
        const full = qty.eq(o.quantity);
        report('F', full ? '2' : '1', {
          LastPx: px,
          LastQty: qty.toString(),
          AvgPx: px,
          CumQty: qty.toString(),
          LeavesQty: dec(o.quantity).minus(qty).toString(),
        });
        if (full) return;
      }
      // The rest of an immediate-or-cancel order (or of a partial fill) is cancelled.
      report('4', '4', { LeavesQty: '0', CumQty: qty.toString(), AvgPx: qty.gt(0) ? px : '0', Text: 'not filled' });
    };
    if (how.latencyMs > 0) setTimeout(answer, how.latencyMs);
    else answer();
  }

  drop(): void {
    this.ready = false;
    this.sim.sessions.delete(this);
    this.transport?.duplex.destroy();
  }

  skip(count: number): void {
    const tx = this.transport?.transmitter as { msgSeqNum?: number } | undefined;
    if (tx && typeof tx.msgSeqNum === 'number') tx.msgSeqNum += count;
  }
}
