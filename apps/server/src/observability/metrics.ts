import { ClosedType } from '@tp/contract/constants';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Names of closed_type values, for labels. */
const CLOSED_TYPE_NAMES = new Map<number, string>(Object.entries(ClosedType).map(([name, value]) => [value, name.toLowerCase()]));
export const closedTypeName = (value: number | null): string => (value === null ? 'none' : (CLOSED_TYPE_NAMES.get(value) ?? String(value)));

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** An order as the metrics need it: whether it came from a pending order, and how it ended. */
export interface OrderFacts {
  pendingKind: string | null;
  status: number;
  closedType: number | null;
}

/** The trading module's committed order changes, as far as the metrics read them. */
export interface OrderEvent {
  type: string;
  order?: OrderFacts;
  orders?: OrderFacts[];
}

/**
 * The Prometheus series of one server. The hot paths only increment a counter or observe a
 * histogram; figures that exist elsewhere (sockets, pool, feed) are read when Prometheus scrapes,
 * through `collect` functions registered by the code that owns them.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly reg = { registers: [this.registry] };

  readonly httpRequests = new Counter({
    name: 'tp_http_requests_total',
    help: 'HTTP requests by method, route pattern, HTTP status and envelope code ("" outside the API envelope)',
    labelNames: ['method', 'route', 'status', 'code'] as const,
    ...this.reg,
  });
  readonly httpDuration = new Histogram({
    name: 'tp_http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    ...this.reg,
  });
  readonly engineLatency = new Histogram({
    name: 'tp_engine_trigger_latency_seconds',
    help: 'Trading engine: from the tick that crossed a trigger to its job committed and pushed, by job kind (fill, close, risk)',
    labelNames: ['kind'] as const,
    buckets: LATENCY_BUCKETS,
    ...this.reg,
  });
  readonly ordersOpened = new Counter({
    name: 'tp_orders_opened_total',
    help: 'Positions opened by this server, by kind: market, or the pending kind (limit, stop) that filled',
    labelNames: ['kind'] as const,
    ...this.reg,
  });
  readonly ordersPending = new Counter({
    name: 'tp_orders_pending_total',
    help: 'Pending orders placed through this server, by kind (limit, stop)',
    labelNames: ['kind'] as const,
    ...this.reg,
  });
  readonly ordersClosed = new Counter({
    name: 'tp_orders_closed_total',
    help: 'Positions closed by this server, by closed_type (user, stop_out, take_profit, stop_loss, staff, demo_reset)',
    labelNames: ['closed_type'] as const,
    ...this.reg,
  });
  readonly ordersCancelled = new Counter({
    name: 'tp_orders_cancelled_total',
    help: 'Pending orders cancelled by this server, by closed_type (none: cancelled by the trader)',
    labelNames: ['closed_type'] as const,
    ...this.reg,
  });
  readonly stopOuts = new Counter({
    name: 'tp_stop_outs_total',
    help: 'Stop-outs: committed transactions that closed or cancelled orders of an account as stop_out',
    ...this.reg,
  });
  readonly ledgerPostings = new Counter({
    name: 'tp_ledger_postings_total',
    help: 'Ledger transactions written, by kind (counted when written; a rolled-back caller transaction is included)',
    labelNames: ['kind'] as const,
    ...this.reg,
  });
  readonly groupCommits = new Histogram({
    name: 'tp_group_commit_size',
    help: 'Money transactions by how many calls they wrote together (group commit): traders orders and closes ("orders"), the engine take-profit and stop-loss closes ("engine")',
    labelNames: ['path'] as const,
    buckets: [1, 2, 4, 8, 16],
    ...this.reg,
  });
  readonly groupCommitFailures = new Counter({
    name: 'tp_group_commit_failures_total',
    help: 'Group commits that failed and were written again one call at a time, by path ("orders", "engine")',
    labelNames: ['path'] as const,
    ...this.reg,
  });
  readonly deskLimitBreaches = new Counter({
    name: 'tp_desk_limit_breaches_total',
    help: "Times the clients' net lots in a symbol passed the dealer's desk limit (counted as each breach starts, by the server pushing the desk), by symbol, accounts (real, demo) and group (the group's name for a group's limit, 'all' for the limit on every client)",
    labelNames: ['symbol', 'accounts', 'group'] as const,
    ...this.reg,
  });
  readonly hedgeOrders = new Counter({
    name: 'tp_hedge_orders_total',
    help: 'Orders sent to liquidity providers over FIX (hedging), by final result (filled, partial, cancelled, rejected, timeout, unsent) and reason (a_open, a_close, hybrid, unwind)',
    labelNames: ['result', 'reason'] as const,
    ...this.reg,
  });
  readonly hedgeMismatches = new Counter({
    name: 'tp_hedge_mismatch_total',
    help: "Times the clients' positions and the hedges disagreed (rejected, timeout, partial, late_fill, unwind_failed, target_not_reached)",
    labelNames: ['reason'] as const,
    ...this.reg,
  });
  readonly dbQueryDuration = new Histogram({
    name: 'tp_db_query_duration_seconds',
    help: 'Database statement latency, as the driver answers it (queueing for a connection included)',
    buckets: LATENCY_BUCKETS,
    ...this.reg,
  });
  readonly leaderChanges = new Counter({
    name: 'tp_leader_changes_total',
    help: 'Times this server became or stopped being the leader (price feed, engine)',
    ...this.reg,
  });

  constructor() {
    // Process CPU, memory, GC and event-loop delay (nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge whose value(s) are read at scrape time. */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: (set: (labels: Record<string, string>, value: number) => void) => void,
  ): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        this.reset();
        read((labels, value) => this.set(labels, value));
      },
    });
  }

  /** A counter kept by someone else (a running total), read at scrape time. */
  counter(name: string, help: string, read: () => number): void {
    let seen = 0;
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        const now = read();
        if (now > seen) this.inc(now - seen);
        seen = now;
      },
    });
  }

  engineJobDone(kind: string, elapsedMs: number): void {
    this.engineLatency.observe({ kind }, elapsedMs / 1000);
  }

  /** Committed order changes (once, on the server that committed them). */
  orderChanges(changes: readonly OrderEvent[]): void {
    for (const c of changes) {
      if (c.type === 'opened' && c.order) this.ordersOpened.inc({ kind: c.order.pendingKind ?? 'market' });
      else if (c.type === 'pending' && c.order) this.ordersPending.inc({ kind: c.order.pendingKind ?? 'limit' });
      else if (c.type === 'closed' && c.orders) {
        let stopOut = false;
        for (const o of c.orders) {
          const closedType = closedTypeName(o.closedType);
          if (o.status === 4) this.ordersCancelled.inc({ closed_type: closedType });
          else this.ordersClosed.inc({ closed_type: closedType });
          stopOut ||= o.closedType === ClosedType.STOP_OUT;
        }
        if (stopOut) this.stopOuts.inc();
      }
    }
  }

  groupCommitted(path: 'orders' | 'engine', size: number): void {
    this.groupCommits.observe({ path }, size);
  }

  groupFailed(path: 'orders' | 'engine'): void {
    this.groupCommitFailures.inc({ path });
  }

  ledgerPosted(kind: string): void {
    this.ledgerPostings.inc({ kind });
  }

  leaderChanged(): void {
    this.leaderChanges.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
