import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Dec, D, ZERO, dec } from '@tp/contract/decimal';
import type { AppContext } from '../../../context.ts';
import type { Tx } from '../../../platform/db/client.ts';
import { BusChannels } from '../../../platform/bus-channels.ts';
import type { FixOrderGateway, FixOrderReport } from '../../market/index.ts';
import { hedgeOrders, hedgePositions } from '../db/schema.ts';

export type HedgeReason = 'a_open' | 'a_close' | 'hybrid' | 'unwind';
export type HedgeStatus = 'sent' | 'new' | 'partial' | 'filled' | 'cancelled' | 'rejected' | 'timeout';
export type MismatchReason = 'rejected' | 'timeout' | 'partial' | 'late_fill' | 'unwind_failed' | 'target_not_reached';

/** A hedge result as it crosses the bus between servers. */
interface WireResult {
  row: HedgeOrderRow | null;
  status: HedgeResult['status'];
  filled: string;
  avgPrice: string | null;
}

/** How long the leader keeps the reconciler off a symbol after answering a follower's hedge order (its client order commits meanwhile). */
const FORWARD_GRACE_MS = 2000;

/** Statuses after which a report can add nothing. */
const FINAL = new Set<string>(['filled', 'cancelled', 'rejected']);
/** Statuses still waiting for the provider. */
const WORKING = ['sent', 'new', 'partial'];

export type HedgeOrderRow = typeof hedgeOrders.$inferSelect;

/** An order to send: `units` = lots x contract size. */
export interface HedgeRequest {
  symbolId: number;
  side: 'buy' | 'sell';
  units: Dec;
  limitPrice?: Dec;
  clientOrderIds?: number[];
  reason: HedgeReason;
}

/** What came of a hedge order when its answer (or its timeout) came. */
export interface HedgeResult {
  row: HedgeOrderRow | null;
  /** 'unsent': no logged-on session quotes the symbol. */
  status: HedgeStatus | 'unsent';
  filled: Dec;
  avgPrice: Dec | null;
}

/** A report's OrdStatus (39) as our status; null for a report that says nothing new of the order. */
function statusOf(r: FixOrderReport): HedgeStatus | null {
  if (r.kind === 'cancel_reject') return null;
  switch (r.ordStatus) {
    case '0':
      return 'new';
    case '1':
      return 'partial';
    case '2':
      return 'filled';
    case '4':
    case 'C':
      return 'cancelled';
    case '8':
      return 'rejected';
    default:
      return null;
  }
}

const num = (v: string | null): Dec | null => (v !== null && /^-?\d+(\.\d+)?$/.test(v) ? dec(v) : null);

/**
 * The hedge book (docs/fix.md#hedging): sends orders to the providers over the FIX sessions of the
 * price source (which run on the leader), records them and their execution reports exactly once,
 * and keeps the net position per provider and symbol. Mismatches are logged, counted
 * (tp_hedge_mismatch_total) and marked on the order, where the dealer's desk shows them.
 */
export class HedgeService {
  private readonly attached = new WeakSet<FixOrderGateway>();
  private readonly waiters = new Map<string, Array<(row: HedgeOrderRow) => void>>();
  /** Reports of one order applied one after the other. */
  private chain: Promise<unknown> = Promise.resolve();
  /** Symbols with an A-book order between its hedge and the client's commit (the reconciler waits for them). */
  readonly inFlight = new Map<number, number>();

  constructor(private readonly ctx: AppContext) {}

  /** The FIX sessions' order side, when this server runs them. */
  gateway(): FixOrderGateway | null {
    const gw = this.ctx.services.priceSource.orders?.() ?? null;
    if (gw && !this.attached.has(gw)) {
      this.attached.add(gw);
      gw.onReport((r) => void this.report(r));
    }
    return gw;
  }

  get timeoutMs(): number {
    return this.ctx.config.fix?.hedge?.timeoutMs ?? 5000;
  }

  get limitOrders(): boolean {
    return (this.ctx.config.fix?.hedge?.orderType ?? 'limit') === 'limit';
  }

  /** The first logged-on session, in FIX_CONFIG order, that trades the symbol. */
  sessionFor(symbolId: number): string | null {
    const gw = this.gateway();
    const code = this.ctx.services.market.symbol(symbolId)?.code;
    if (!gw || !code) return null;
    return gw.sessionNames().find((s) => gw.canSend(s) && gw.quotes(s, code)) ?? null;
  }

  /**
   * Whether hedge orders can be sent for the symbol now: a session of this server is up and trades
   * it, or (a follower in a cluster) the leader may send it, and answers 'unsent' when it cannot.
   */
  available(symbolId: number): boolean {
    return this.sessionFor(symbolId) !== null || this.forwards();
  }

  /** Whether this server can have hedge orders sent now: a session of its own logged on, or a follower handing them to the leader. */
  canSend(): boolean {
    const gw = this.gateway();
    return gw ? gw.sessionNames().some((s) => gw.canSend(s)) : this.forwards();
  }

  /** A follower with FIX configured, on a bus between servers: its hedge orders go to the leader. */
  private forwards(): boolean {
    return this.ctx.config.fix !== undefined && !this.gateway() && this.ctx.bus.state?.().kind === 'redis';
  }

  /** Sends one order and waits for its final report or the timeout (on a follower: through the leader). */
  async execute(req: HedgeRequest): Promise<HedgeResult> {
    if (this.forwards()) return this.forward(req);
    return this.executeHere(req);
  }

  private readonly replies = new Map<string, (result: WireResult) => void>();
  private offReplies: (() => void) | null = null;
  private offRequests: (() => void) | null = null;

  /** On a follower: asks the leader to send the order, and waits for its answer (unsent when none comes). */
  private async forward(req: HedgeRequest): Promise<HedgeResult> {
    this.offReplies ??= this.ctx.bus.subscribe(BusChannels.hedgeReply, (m) => {
      const { id, result } = m as { id: string; result: WireResult };
      this.replies.get(id)?.(result);
    });
    const id = randomUUID();
    const wire = await new Promise<WireResult | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.timeoutMs + 3000);
      this.replies.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.ctx.bus.publish(BusChannels.hedgeRequest, {
        id,
        req: { ...req, units: req.units.toString(), limitPrice: req.limitPrice?.toString() },
      });
    });
    this.replies.delete(id);
    if (!wire) {
      this.ctx.log.warn({ symbolId: req.symbolId, reason: req.reason }, 'hedge order: no answer from the leader');
      return { row: null, status: 'unsent', filled: ZERO, avgPrice: null };
    }
    const row = wire.row ? { ...wire.row, createdAt: new Date(wire.row.createdAt), updatedAt: new Date(wire.row.updatedAt) } : null;
    return { row, status: wire.status, filled: dec(wire.filled), avgPrice: wire.avgPrice === null ? null : dec(wire.avgPrice) };
  }

  /** On the leader: sends the orders followers ask for (a leader task). */
  serve(): void {
    this.offRequests ??= this.ctx.bus.subscribe(BusChannels.hedgeRequest, (m) => {
      const { id, req } = m as { id: string; req: Omit<HedgeRequest, 'units' | 'limitPrice'> & { units: string; limitPrice?: string } };
      if (!this.gateway()) return;
      // The follower's client order commits just after the answer: the reconciler leaves the symbol alone meanwhile.
      const release = this.hold(req.symbolId);
      const { limitPrice, units, ...rest } = req;
      void this.executeHere({ ...rest, units: dec(units), ...(limitPrice ? { limitPrice: dec(limitPrice) } : {}) })
        .then((r) => {
          const result: WireResult = {
            row: r.row,
            status: r.status,
            filled: r.filled.toString(),
            avgPrice: r.avgPrice?.toString() ?? null,
          };
          this.ctx.bus.publish(BusChannels.hedgeReply, { id, result });
        })
        .catch((err: unknown) => this.ctx.log.error({ err }, 'forwarded hedge order failed'))
        .finally(() => setTimeout(release, FORWARD_GRACE_MS).unref());
    });
  }

  stopServing(): void {
    this.offRequests?.();
    this.offRequests = null;
  }

  private async executeHere(req: HedgeRequest): Promise<HedgeResult> {
    const gw = this.gateway();
    const session = this.sessionFor(req.symbolId);
    const code = this.ctx.services.market.symbol(req.symbolId)?.code;
    if (!gw || !session || !code || req.units.lte(0)) {
      this.ctx.metrics.hedgeOrders.inc({ result: 'unsent', reason: req.reason });
      return { row: null, status: 'unsent', filled: ZERO, avgPrice: null };
    }
    const clOrdId = `TP-${randomUUID()}`;
    const [row] = await this.ctx.db
      .insert(hedgeOrders)
      .values({
        clOrdId,
        session,
        symbolId: req.symbolId,
        side: req.side,
        quantity: req.units.toString(),
        limitPrice: req.limitPrice?.toString() ?? null,
        status: 'sent',
        clientOrderIds: req.clientOrderIds ?? [],
        reason: req.reason,
      })
      .returning();
    const answered = new Promise<HedgeOrderRow | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.timeoutMs);
      const list = this.waiters.get(clOrdId) ?? [];
      list.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.waiters.set(clOrdId, list);
    });
    const sent = gw.send({
      session,
      clOrdId,
      symbol: code,
      side: req.side,
      quantity: req.units.toString(),
      ...(req.limitPrice ? { limitPrice: req.limitPrice.toString() } : {}),
    });
    let final = sent ? await answered : null;
    this.waiters.delete(clOrdId);
    if (!final)
      final = await this.timedOut(
        row!,
        sent ? 'timeout' : 'rejected',
        sent ? 'no final report in time' : 'not sent: session not logged on',
      );
    const filled = dec(final.filledQty);
    const result: HedgeResult = {
      row: final,
      status: final.status as HedgeStatus,
      filled,
      avgPrice: final.avgPrice === null ? null : dec(final.avgPrice),
    };
    const label = final.status === 'cancelled' && filled.gt(0) ? 'partial' : final.status;
    this.ctx.metrics.hedgeOrders.inc({ result: label, reason: req.reason });
    this.ctx.log.info(
      {
        clOrdId,
        session,
        symbol: code,
        side: req.side,
        units: req.units.toString(),
        status: final.status,
        filled: final.filledQty,
        avgPrice: final.avgPrice,
        reason: req.reason,
      },
      'hedge order done',
    );
    return result;
  }

  /** No final report in time: the order is marked 'timeout' (a report arriving later still applies); not sent at all: 'rejected'. */
  private async timedOut(row: HedgeOrderRow, status: 'timeout' | 'rejected', why: string): Promise<HedgeOrderRow> {
    const [updated] = await this.ctx.db
      .update(hedgeOrders)
      .set({ status, text: why, updatedAt: new Date() })
      .where(and(eq(hedgeOrders.id, row.id), inArray(hedgeOrders.status, WORKING)))
      .returning();
    if (updated) return updated;
    const [now] = await this.ctx.db.select().from(hedgeOrders).where(eq(hedgeOrders.id, row.id));
    return now!;
  }

  /** Marks an order's disagreement with the clients' positions: logged, counted and shown on the desk. */
  async mismatch(row: HedgeOrderRow | null, reason: MismatchReason, detail: Record<string, unknown> = {}): Promise<void> {
    this.ctx.metrics.hedgeMismatches.inc({ reason });
    this.ctx.log.warn({ reason, clOrdId: row?.clOrdId, symbolId: row?.symbolId, ...detail }, 'hedge mismatch');
    if (row) await this.ctx.db.update(hedgeOrders).set({ mismatch: reason, updatedAt: new Date() }).where(eq(hedgeOrders.id, row.id));
    else this.looseMismatches.push({ reason, at: new Date(), detail });
    if (this.looseMismatches.length > 100) this.looseMismatches.shift();
  }

  /** Mismatches not tied to one order (a hybrid target not reached with nothing sent). */
  readonly looseMismatches: Array<{ reason: MismatchReason; at: Date; detail: Record<string, unknown> }> = [];

  /** A report from a provider: applied once (serialised), then the order's waiter hears a final status. */
  report(r: FixOrderReport): Promise<unknown> {
    const run = this.chain.then(async () => {
      try {
        const after = await this.ctx.db.transaction((tx) => this.apply(tx, r));
        if (after && FINAL.has(after.status)) for (const w of this.waiters.get(r.clOrdId) ?? []) w(after);
      } catch (err) {
        this.ctx.log.error({ err, clOrdId: r.clOrdId }, 'hedge report not applied');
      }
    });
    this.chain = run;
    return run;
  }

  /**
   * Applies one report under the order's row lock: the filled quantity only grows (CumQty), a final
   * status stays final, and the position moves by the growth only; the same report again changes nothing.
   */
  async apply(tx: Tx, r: FixOrderReport): Promise<HedgeOrderRow | null> {
    const [row] = await tx.select().from(hedgeOrders).where(eq(hedgeOrders.clOrdId, r.clOrdId)).for('update');
    if (!row) {
      this.ctx.log.warn({ clOrdId: r.clOrdId, session: r.session }, 'execution report for an unknown hedge order');
      return null;
    }
    if (r.kind === 'cancel_reject') {
      this.ctx.log.warn({ clOrdId: r.clOrdId, text: r.text }, 'hedge order: cancel rejected');
      return row;
    }
    const before = dec(row.filledQty);
    const cum = num(r.cumQty) ?? before;
    const grown = D.max(ZERO, cum.minus(before));
    const wasFinal = FINAL.has(row.status);
    const status = wasFinal ? row.status : (statusOf(r) ?? row.status);
    if (grown.isZero() && status === row.status) return row;
    const avg = num(r.avgPx);
    const [updated] = await tx
      .update(hedgeOrders)
      .set({
        status,
        ...(grown.gt(0) ? { filledQty: cum.toString(), ...(avg && avg.gt(0) ? { avgPrice: avg.toString() } : {}) } : {}),
        providerOrderId: r.orderId ?? row.providerOrderId,
        text: r.text ?? row.text,
        updatedAt: new Date(),
      })
      .where(eq(hedgeOrders.id, row.id))
      .returning();
    if (grown.gt(0)) {
      const signed = row.side === 'buy' ? grown : grown.neg();
      await tx
        .insert(hedgePositions)
        .values({ session: row.session, symbolId: row.symbolId, netUnits: signed.toString() })
        .onConflictDoUpdate({
          target: [hedgePositions.session, hedgePositions.symbolId],
          set: { netUnits: sql`${hedgePositions.netUnits} + ${signed.toString()}`, updatedAt: new Date() },
        });
      if (row.status === 'timeout') {
        // Filled after the order had been given up: the client side did not follow it.
        this.ctx.metrics.hedgeMismatches.inc({ reason: 'late_fill' });
        this.ctx.log.warn({ clOrdId: row.clOrdId, filled: cum.toString() }, 'hedge mismatch: fill after the timeout');
        await tx.update(hedgeOrders).set({ mismatch: 'late_fill' }).where(eq(hedgeOrders.id, row.id));
      }
    }
    return updated!;
  }

  /** Net units held at the providers per symbol (all sessions). */
  async netBySymbol(): Promise<Map<number, Dec>> {
    const rows = await this.ctx.db.select().from(hedgePositions);
    const out = new Map<number, Dec>();
    for (const r of rows) out.set(r.symbolId, (out.get(r.symbolId) ?? ZERO).plus(r.netUnits));
    return out;
  }

  /** The hedge book for staff: positions per provider and symbol, and the newest orders. */
  async book(limit = 100): Promise<{ positions: (typeof hedgePositions.$inferSelect)[]; orders: HedgeOrderRow[] }> {
    const [positions, orders] = await Promise.all([
      this.ctx.db.select().from(hedgePositions).orderBy(asc(hedgePositions.session), asc(hedgePositions.symbolId)),
      this.ctx.db.select().from(hedgeOrders).orderBy(desc(hedgeOrders.id)).limit(limit),
    ]);
    return { positions, orders };
  }

  private held = 0;

  /** Changes each time an A-book order starts (the reconciler's check that nothing started while it read). */
  generation(): number {
    return this.held;
  }

  /** Hedge orders marked with a mismatch since `since`. */
  async mismatchesSince(since: Date): Promise<number> {
    const [row] = await this.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(hedgeOrders)
      .where(and(isNotNull(hedgeOrders.mismatch), gte(hedgeOrders.updatedAt, since)));
    return Number(row?.n ?? 0) + this.looseMismatches.filter((m) => m.at >= since).length;
  }

  /** Marks a symbol as having an A-book order on its way (hedged, the client's side not yet committed). */
  hold(symbolId: number): () => void {
    this.held++;
    this.inFlight.set(symbolId, (this.inFlight.get(symbolId) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.inFlight.get(symbolId) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(symbolId);
      else this.inFlight.set(symbolId, n);
    };
  }
}
