import { OrderStatus } from '@tp/contract/constants';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AppContext } from '../../../context.ts';
import { leaderFence } from '../../../platform/leader.ts';
import type { MarketService, Tick } from '../../market/index.ts';
import { UserJobQueue } from './job-queue.ts';
import { GroupCommit, Permits } from './group-commit.ts';
import { HOUSE_SHARDS } from '../../ledger/index.ts';
import type { OrderChange } from '../settlement/order-ops.ts';
import { type LiveAccount, LiveBooks } from './live-books.ts';
import { ChangeLogReader } from '../events/change-log.ts';
import { type OrderRow, findOrder, liveOrdersAfter, liveOrdersOf, ordersByIds } from '../db/repository.ts';
import { RiskReview } from './risk-review.ts';
import type { TradingSettings } from '../admission/settings.ts';
import type { CloseJob, EngineJob, TriggerExecutor } from './trigger-executor.ts';
import { type SymbolBook, type Trigger, TriggerKind } from './trigger-book.ts';

const KIND_RANK = (t: Trigger) => (t.kind === TriggerKind.FILL ? 1 : t.kind === TriggerKind.RISK ? 2 : 0);
const byKind = (a: Trigger, b: Trigger) => KIND_RANK(a) - KIND_RANK(b);
/** Accounts whose balances one query reads, and accounts reviewed between two yields to the event loop. */
const BALANCE_QUERY_SIZE = 50;
const SLICE = 10;
/** Sweeps (seconds) in which every account gets a full review. */
const REVIEW_CYCLE = 60;
const SWEEP_MAX_USERS = 20_000;
/** Finished orders are remembered this long, longer than the change log keeps its rows. */
const FINISHED_KEEP_MS = 15 * 60_000;
/** A failed job's order is read again after this, doubling per failed read up to RESYNC_MAX_MS. */
const RESYNC_MS = 250;
const RESYNC_MAX_MS = 1_000;
/** Users' close batches written in one transaction at most (group commit); more users' jobs run side by side waiting for it. */
const GROUP_MAX = 16;

export interface EngineOptions {
  concurrency: number;
  sweepMs: number;
}

/**
 * The trading engine. Per symbol, books of trigger prices (take-profit, stop-loss, pending entries,
 * and per account the prices at which its risk rate must be looked at again); a tick only pays for
 * what it crosses. Triggered work goes to a worker that commits in the database, then pushes.
 * Memory is a cache of the database, rebuilt at start; the guarded updates decide.
 */
export class TradingEngine {
  /** The desk's sums count each position in its account's group as this server knows it. */
  private readonly live = new LiveBooks((userId, isDemo) => this.settings.groups.groupIdOf(userId, isDemo) ?? 0);
  private readonly scratch: Trigger[] = [];
  readonly risk: RiskReview;
  private readonly queue: UserJobQueue<EngineJob>;
  /** The engine's database transactions at once: `concurrency`, groups of closes included. */
  private readonly permits: Permits;
  private readonly closes: GroupCommit<CloseJob[]>;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private sweeps = 0;
  private cycle: number[] = [];
  /** Reads every committed change from the database's change log: nothing the books must see is lost with a message. */
  readonly changeLog: ChangeLogReader;
  /** Accounts being read again from the database (a skipped version showed something was missed). */
  private readonly resyncing = new Set<number>();
  /** A lone server keeps its books from the first change; in a cluster only the leader does. */
  private accepting: boolean;
  /** Called when a triggered job has committed and pushed (benchmarks, tests). */
  onJobDone: ((job: EngineJob, doneAt: number) => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly executor: TriggerExecutor,
    private readonly opts: EngineOptions,
  ) {
    this.permits = new Permits(opts.concurrency);
    this.closes = new GroupCommit<CloseJob[]>({
      runGroup: (batches) => this.executor.closeGroup(batches),
      runOne: (batch) => this.executor.closeAll(batch),
      // Lanes split the house's shards: two groups running side by side never wait on the same house row.
      laneOf: (batch) => batch[0]!.userId % HOUSE_SHARDS,
      lanes: opts.concurrency,
      maxGroup: GROUP_MAX,
      permits: this.permits,
      scope: () => leaderFence.getStore(),
      enter: (epoch, fn) => (epoch === undefined ? leaderFence.exit(fn) : leaderFence.run(epoch as number, fn)),
      onGroupFailed: (err, size) => {
        this.ctx.metrics.groupFailed('engine');
        this.ctx.log.warn({ err, users: size }, 'trading engine group commit failed; writing each user alone');
      },
      onCommitted: (size) => this.ctx.metrics.groupCommitted('engine', size),
    });
    this.queue = new UserJobQueue(
      (jobs) => this.fenced(() => this.runJobs(jobs)),
      // Jobs wait for a permit (a database transaction) or for their group: more may be under way than transactions.
      opts.concurrency * GROUP_MAX,
      (job, err) => this.jobFailed(job, err),
      (first, next) => first.kind === 'close' && next.kind === 'close',
    );
    this.accepting = !ctx.clustered;
    this.changeLog = new ChangeLogReader(ctx, {
      needs: (orderId, version) => {
        const known = this.live.versionOf(orderId);
        return known === undefined || version === null || version > known;
      },
      applyLogged: (orders, userIds) => this.applyLogged(orders, userIds),
    });
    this.risk = new RiskReview(ctx, settings, this.live, (acc, at) => this.queueRisk(acc, at ?? performance.now()));
  }

  private get market(): MarketService {
    return this.ctx.services.market;
  }

  /** Users' jobs run side by side, each on its own database connection. */
  get concurrency(): number {
    return this.opts.concurrency;
  }

  get running(): boolean {
    return this.unsubscribe !== null;
  }

  stats() {
    return { ...this.live.stats(), queuedUsers: this.queue.size };
  }

  /** The books' copy of one account, null when they hold nothing of it (tests compare it with the database). */
  bookOf(userId: number) {
    const acc = this.live.accounts.get(userId);
    if (!acc) return null;
    return {
      cash: acc.cash,
      locked: acc.locked,
      positions: [...acc.positions.values()],
      pendings: [...acc.pendings].map((id) => this.live.pendings.get(id)!.row),
    };
  }

  /** The open positions' sums per symbol and side of real or demo accounts (the dealer's desk reads them on its own timer, never per tick). */
  deskTotals(isDemo: boolean) {
    return this.live.deskTotals.of(isDemo);
  }

  /** The same sums per account group. */
  deskTotalsByGroup(isDemo: boolean) {
    return this.live.deskTotals.byGroup(isDemo);
  }

  /** The accounts in the books with an open position, real or demo (the dealer's desk, on its own timer). */
  *openAccounts(isDemo: boolean): Generator<LiveAccount> {
    for (const a of this.live.accounts.values()) if (a.isDemo === isDemo && a.positions.size) yield a;
  }

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.accepting = true;
    await this.settings.reload(this.ctx.db);
    // The log is read from before the books are: a change committed meanwhile is read twice, never missed.
    await this.changeLog.mark();
    for (let after = 0; ;) {
      const rows = await liveOrdersAfter(this.ctx.db, after, 5_000);
      if (!rows.length) break;
      for (const row of rows) this.live.track(row);
      after = rows[rows.length - 1]!.id;
    }
    await this.refreshBalances([...this.live.accounts.keys()]);
    // Each account's group (its margin-call and stop-out levels, its stop-out policy).
    await this.settings.groups.ensureUsers(this.ctx.db, [...this.live.accounts.keys()], Infinity, true);
    for (const acc of this.live.accounts.values()) this.live.regroup(acc);
    this.unsubscribe = this.market.onTick(this.onTick);
    this.timer = setInterval(() => void this.sweep(), this.opts.sweepMs);
    this.timer.unref();
    this.changeLog.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.changeLog.stop();
    await this.sweeping;
    await this.queue.idle();
    // A server that is no longer the leader forgets; the next leader rebuilds from the database.
    if (this.ctx.clustered) {
      this.accepting = false;
      this.live.clear();
    }
  }

  /** Resolves when every triggered job has committed (and every risk event is written). */
  async idle(): Promise<void> {
    await this.pollChanges();
    while (this.queue.size || this.risk.writing) {
      await this.queue.idle();
      await this.risk.written();
    }
  }

  /** The hot path: six comparisons and no allocation unless something is crossed. */
  readonly onTick = (tick: Tick): void => {
    const book = this.live.books.get(tick.symbolId);
    if (book === undefined) return;
    book.ticked = true;
    const bid = +tick.bid;
    const ask = +tick.ask;
    const mid = +tick.mid;
    if (book.crossedAny(bid, ask, mid)) this.fire(book, tick, bid, ask, mid);
  };

  private fire(book: SymbolBook, tick: Tick, bid: number, ask: number, mid: number): void {
    const crossed = this.scratch;
    crossed.length = 0;
    book.popCrossed(bid, ask, mid, crossed);
    // A user's closes run before their fills, and both before a risk check.
    if (crossed.length > 1) crossed.sort(byKind);
    const now = performance.now();
    for (const t of crossed) {
      if (t.kind === TriggerKind.RISK) {
        // Looked at in memory at this tick's prices: a stop-out job is queued only when the level is reached.
        const acc = this.live.accounts.get(t.id);
        if (acc) this.risk.review(acc, now);
      } else if (t.kind === TriggerKind.FILL) {
        const p = this.live.pendings.get(t.id);
        if (!p || p.filling) continue;
        p.filling = true;
        p.armed = null;
        this.queue.push({
          kind: 'fill',
          userId: p.row.userId,
          isDemo: p.row.isDemo,
          orderId: t.id,
          bid: tick.bid,
          ask: tick.ask,
          triggeredAt: now,
        });
      } else {
        const pos = this.live.positions.get(t.id);
        if (!pos || pos.closing) continue;
        pos.closing = true;
        this.live.disarm(pos.stops);
        const trigger = t.kind as typeof TriggerKind.TAKE_PROFIT;
        const { row } = pos;
        this.queue.push({
          kind: 'close',
          userId: row.userId,
          isDemo: row.isDemo,
          orderId: t.id,
          order: row,
          trigger,
          bid: tick.bid,
          ask: tick.ask,
          triggeredAt: now,
        });
      }
    }
    crossed.length = 0;
  }

  /**
   * Closes crossed together for one user go in one transaction, shared with other users' closes
   * of the same moment (group commit); should that fail, each is tried on its own, so one bad
   * order never holds back the others. Other jobs run alone, one transaction each.
   */
  private async runJobs(jobs: EngineJob[]): Promise<void> {
    if (jobs[0]!.kind !== 'close') return this.permits.with(() => this.runJob(jobs[0]!));
    try {
      await this.closes.submit(jobs as CloseJob[]);
    } catch (err) {
      if (jobs.length === 1) throw err;
      this.ctx.log.warn({ err, userId: jobs[0]!.userId, jobs: jobs.length }, 'trading engine batch failed; closing one by one');
      for (const job of jobs) {
        try {
          await this.permits.with(() => this.runJob(job));
        } catch (e) {
          this.jobFailed(job, e);
        }
      }
      return;
    }
    const doneAt = performance.now();
    for (const job of jobs) this.ctx.metrics.engineJobDone(job.kind, doneAt - job.triggeredAt);
    for (const job of jobs) this.onJobDone?.(job, doneAt);
  }

  /** The jobs' transactions carry the leader's epoch: once another server leads, the database refuses them. */
  private fenced<T>(fn: () => Promise<T>): Promise<T> {
    const epoch = this.ctx.clustered ? this.ctx.leaderEpoch?.() : undefined;
    return epoch === undefined ? fn() : leaderFence.run(epoch, fn);
  }

  private async runJob(job: EngineJob): Promise<void> {
    let committed: (ok: boolean) => void = () => undefined;
    const whenCommitted = new Promise<boolean>((resolve) => (committed = resolve));
    let acted = false;
    try {
      // The stop-out's event takes its place among the account's events now, and is written if the transaction commits.
      await this.executor.run(job, (riskRate) => {
        acted = true;
        this.risk.record(job.userId, 'stop_out', riskRate, whenCommitted);
      });
      committed(true);
    } catch (err) {
      committed(false);
      throw err;
    }
    if (job.kind === 'risk') {
      const acc = this.live.accounts.get(job.userId);
      // Still flagged as queued while reviewing: an account the check left at the level is not
      // queued again at once, but at its next tick. One that a tick brought to the level while the
      // check was under way, and that the check found above it (it read the prices before that
      // tick), is checked again now: that tick's stop-out is not left to a later one.
      if (acc) {
        const movedMeanwhile = acc.recheck && !acted;
        this.risk.review(acc);
        this.risk.pushTrade(acc);
        acc.riskQueued = false;
        acc.recheck = false;
        if (movedMeanwhile && this.accepting) this.risk.review(acc);
      }
    }
    this.ctx.metrics.engineJobDone(job.kind, performance.now() - job.triggeredAt);
    this.onJobDone?.(job, performance.now());
  }

  private jobFailed(job: EngineJob, err: unknown): void {
    this.ctx.log.error({ err, job: { kind: job.kind, userId: job.userId } }, 'trading engine job failed');
    const acc = this.live.accounts.get(job.userId);
    if (acc) acc.riskQueued = acc.recheck = false;
    if (job.kind === 'risk') return;
    this.resync(job.orderId, 0);
  }

  /**
   * A failed job left its order disarmed (closing or filling): the books follow the database
   * again a moment later, re-arming it if the row still applies (the next crossing tick then
   * retries) and dropping it if not. A read that fails is tried again with backoff until one
   * succeeds, so no order stays disarmed; a server that stopped leading leaves it to the next
   * leader, which rebuilds from the database.
   */
  private resync(orderId: number, failures: number): void {
    const delay = Math.min(RESYNC_MS * 2 ** failures, RESYNC_MAX_MS) * (0.8 + Math.random() * 0.4);
    setTimeout(() => {
      if (!this.accepting) return;
      findOrder(this.ctx.db, orderId).then(
        (order) => this.apply([{ type: 'sync', orderId, order }]),
        (err: unknown) => {
          if (failures === 0 || failures % 20 === 0)
            this.ctx.log.error({ err, orderId, failures: failures + 1 }, 'trading engine resync failed: trying again');
          this.resync(orderId, failures + 1);
        },
      );
    }, delay).unref();
  }

  /**
   * Applies what a committed transaction changed; FOREX_CLOSED goes out here, right after the commit.
   * Order rows replace the books' copies by version: an older one is ignored, a skipped version has
   * the account read again from the database.
   */
  readonly apply = (changes: OrderChange[]): void => {
    if (!this.accepting) return;
    const touched = new Set<LiveAccount>();
    const closedIds = new Map<number, number[]>();
    for (const c of changes) {
      if (c.type === 'opened' || c.type === 'pending' || c.type === 'stops') this.putRow(c.order, touched, closedIds);
      else if (c.type === 'sync') {
        if (c.order) this.putRow(c.order, touched, closedIds);
        else {
          const acc = this.live.untrack(c.orderId);
          if (acc) touched.add(acc);
        }
      } else if (c.type === 'closed') {
        for (const o of c.orders) this.putRow(o, touched, closedIds);
      } else if (c.type === 'review') {
        const acc = this.live.accounts.get(c.userId);
        // A client moved to another group on this server: the desk files their positions under it now, not
        // only once the change log can be read past every transaction that was writing when the move committed.
        if (acc) this.live.regroup(acc);
        // Queued now, the review locks the user's rows, so it reads the balances once the posting has committed.
        if (acc?.positions.size) this.queueRisk(acc, performance.now());
      } else {
        const acc = this.live.accounts.get(c.userId);
        if (acc) {
          acc.cash = c.cash;
          acc.locked = c.locked;
          acc.version++;
          touched.add(acc);
        }
      }
    }
    this.settle(touched, closedIds);
  };

  /** Reads the change log now (the bus said something was committed). */
  pollChanges(): Promise<void> {
    return this.accepting && this.running ? this.changeLog.poll() : Promise.resolve();
  }

  private putRow(row: OrderRow, touched: Set<LiveAccount>, closedIds: Map<number, number[]>): void {
    const known = this.live.positions.has(row.id) || this.live.pendings.has(row.id);
    const put = this.live.put(row);
    if (!put) return;
    if (put.acc) touched.add(put.acc);
    if (put.gap) this.resyncAccount(row.userId);
    if (row.status !== OrderStatus.PENDING && row.status !== OrderStatus.OPEN)
      closedIds.set(row.userId, [...(closedIds.get(row.userId) ?? []), row.id]);
    else if (!known) {
      const at = row.createdAt.getTime();
      this.armedSince.set(row.symbolId, Math.max(at, this.armedSince.get(row.symbolId) ?? 0));
    }
  }

  /** Symbols whose books took an order new to them since the last check, with the newest such order's creation time. */
  private readonly armedSince = new Map<number, number>();

  /**
   * An order the books learn of after a tick that came after it (the bus or the change log brought
   * it late) is checked against the symbol's newest accepted quote at once, as that tick would have
   * been: a level it crossed fires now, not at the next tick that happens to cross it. A quote older
   * than the order triggers nothing (fills happen on a tick after placement: a pending order placed
   * at the market price waits for one), nor does any while the symbol does not trade. Changes of
   * orders the books already hold (a fill, new stops) wait for the next tick, as they always have.
   */
  private checkArmed(): void {
    for (const [symbolId, newest] of this.armedSince) {
      const quote = this.market.quote(symbolId);
      if (quote && quote.time > newest && this.market.isOpen(symbolId)) this.onTick(quote);
    }
    this.armedSince.clear();
  }

  private settle(touched: Set<LiveAccount>, closedIds: Map<number, number[]>): void {
    this.checkArmed();
    this.learnGroups(touched);
    for (const acc of touched) {
      const empty = !acc.positions.size && !acc.pendings.size;
      this.risk.review(acc);
      if (closedIds.has(acc.userId) && !acc.positions.size) this.risk.pushTrade(acc);
      if (empty) this.live.dropAccount(acc);
      else this.live.dirty.add(acc.userId);
    }
  }

  /** Accounts new to the books whose group this server has not read: read it, then look at them again on its levels. */
  private learnGroups(touched: Set<LiveAccount>): void {
    const unknown = [...touched].filter((a) => !this.settings.groups.knows(a.userId)).map((a) => a.userId);
    if (!unknown.length) return;
    void this.settings.groups
      .ensureUsers(this.ctx.db, unknown, Infinity)
      .then(() => {
        for (const id of unknown) {
          const acc = this.live.accounts.get(id);
          if (acc) this.live.regroup(acc);
          if (acc && this.accepting) this.queueRisk(acc, performance.now());
        }
      })
      .catch((err: unknown) => this.ctx.log.error({ err }, 'trading engine group read failed'));
  }

  /**
   * Orders read from the change log (as they are now) and users whose balances moved: the balances
   * are read first, and kept only if no newer ones were applied meanwhile.
   */
  private async applyLogged(orders: OrderRow[], userIds: number[]): Promise<void> {
    if (!this.accepting) return;
    const before = new Map(userIds.map((id) => [id, this.live.accounts.get(id)?.version ?? 0]));
    const balances = await this.ctx.services.ledger.balancesOf(this.ctx.db, userIds);
    // A user moved to another group writes a row in the log: their group is read again with the balances.
    await this.settings.groups.ensureUsers(this.ctx.db, userIds, 0, true);
    if (!this.accepting) return;
    const touched = new Set<LiveAccount>();
    const closedIds = new Map<number, number[]>();
    for (const row of orders) this.putRow(row, touched, closedIds);
    for (const id of userIds) {
      const acc = this.live.accounts.get(id);
      // A moved user's positions count in their new group on the desk.
      if (acc) this.live.regroup(acc);
      const b = balances.get(id);
      if (!acc || !b) continue;
      if (acc.version === before.get(id)) {
        acc.cash = b.balance;
        acc.locked = b.lockBalance;
        acc.version++;
      }
      touched.add(acc);
    }
    this.settle(touched, closedIds);
  }

  /** Reads one account's orders and balances again from the database (something was missed). */
  private resyncAccount(userId: number): void {
    if (this.resyncing.has(userId)) return;
    this.resyncing.add(userId);
    void (async () => {
      try {
        const live = await liveOrdersOf(this.ctx.db, userId);
        const acc = this.live.accounts.get(userId);
        const seen = new Set(live.map((o) => o.id));
        const gone = acc ? [...acc.positions.keys(), ...acc.pendings].filter((id) => !seen.has(id)) : [];
        await this.applyLogged([...live, ...(await ordersByIds(this.ctx.db, gone))], [userId]);
      } catch (err) {
        this.ctx.log.error({ err, userId }, 'trading engine account resync failed');
      } finally {
        this.resyncing.delete(userId);
      }
    })();
  }

  private queueRisk(acc: LiveAccount, now: number): void {
    this.live.disarm(acc.lines);
    if (acc.riskQueued) return;
    acc.riskQueued = true;
    this.queue.push({ kind: 'risk', userId: acc.userId, isDemo: acc.isDemo, triggeredAt: now });
  }

  /** Fresh balances from the ledger (deposits and withdrawals move them too), then a review. */
  private async refreshBalances(userIds: number[]): Promise<void> {
    for (let i = 0; i < userIds.length; i += BALANCE_QUERY_SIZE) {
      const chunk = userIds.slice(i, i + BALANCE_QUERY_SIZE);
      const versions = chunk.map((id) => this.live.accounts.get(id)?.version);
      const balances = await this.ctx.services.ledger.balancesOf(this.ctx.db, chunk);
      for (const [j, id] of chunk.entries()) {
        const acc = this.live.accounts.get(id);
        if (acc && acc.version === versions[j]) {
          const b = balances.get(id)!;
          acc.cash = b.balance;
          acc.locked = b.lockBalance;
          this.risk.review(acc);
        }
        if (j % SLICE === SLICE - 1) await yieldToLoop();
      }
    }
  }

  /**
   * Once a second: a FOREX_TRADE push to every account whose symbols ticked or whose orders
   * changed; and a slice of all accounts (each about every REVIEW_CYCLE sweeps) gets fresh balances
   * and new risk lines, catching what the lines cannot see (conversion rates, deposits).
   */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      try {
        if (++this.sweeps % 10 === 0) await this.settings.reload(this.ctx.db);
        this.live.pruneFinished(Date.now() - FINISHED_KEEP_MS);
        let marked = 0;
        for (const book of this.live.books.values()) {
          if (!book.ticked) continue;
          book.ticked = false;
          for (const userId of book.holders.keys()) {
            this.live.dirty.add(userId);
            // A book can have thousands of holders: never one long pass that holds up the ticks.
            if (++marked % (SLICE * 200) === 0) await yieldToLoop();
          }
        }
        let pushed = 0;
        for (const id of this.live.dirty) {
          if (pushed++ >= SWEEP_MAX_USERS) break;
          this.live.dirty.delete(id);
          const acc = this.live.accounts.get(id);
          if (acc?.positions.size) this.risk.pushTrade(acc);
          if (pushed % (SLICE * 20) === 0) await yieldToLoop();
        }
        if (!this.cycle.length) this.cycle = [...this.live.accounts.keys()];
        await this.refreshBalances(this.cycle.splice(0, Math.ceil(this.live.accounts.size / REVIEW_CYCLE)));
      } catch (err) {
        this.ctx.log.error({ err }, 'trading engine sweep failed');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }
}
