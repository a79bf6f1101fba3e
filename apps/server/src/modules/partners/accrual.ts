import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { D, type Dec, dec, moneyStr } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../platform/db/client.ts';
import { invitersOf, realUsersInvitedBy } from '../auth/index.ts';
import { userAccountBalance } from '../ledger/index.ts';
import { finishedDepositsOf } from '../funding/index.ts';
import { closedOrdersOf, reversedOrdersOf } from '../trading/index.ts';
import { partnerAccrualMarks, partnerCommissions, partnerCursors, partnerDebts, partnerPlans, partners } from './schema.ts';
import { PARTNER_ENTRY, PartnerStatus } from './service.ts';
import { PeriodicPass } from './periodic-pass.ts';

/** How far back each pass reads again before its cursor: a close committed late (its completed_at is taken before commit) is still read. */
export const ACCRUAL_OVERLAP_MS = 10 * 60_000;
const PAGE = 500;
const EVERY_MS = 2_000;
const CURSOR = 'closes';
const REVERSALS = 'reversals';

type PlanRow = typeof partnerPlans.$inferSelect;
interface PartnerInfo {
  userId: number;
  planId: number | null;
  approvedAt: Date | null;
}

/** One tier's payee: the partner and their share (percent) of the direct partner's plan rates. */
interface Payee {
  partnerUserId: number;
  tier: number;
  share: Dec;
  approvedAt: Date;
}

/** Rounds a commission down to the ledger's 6 places (the house never pays a fraction more). */
const cents = (v: Dec) => v.toDecimalPlaces(6, D.ROUND_DOWN);

/**
 * Accrues partner commissions from committed closed orders of referred clients and CPA on clients'
 * first qualifying deposits, after the fact: a close is never delayed nor failed by it. Each source
 * (closed order, partial close included, or a client's CPA) is weighed once, in the transaction that
 * marks it (partner_accrual_marks) and posts its commissions through the ledger, each with its own key
 * (source, partner, tier): two passes, two servers or a restart pay nothing twice.
 */
export class PartnerAccrual extends PeriodicPass {
  constructor(ctx: AppContext) {
    super(ctx, EVERY_MS, 'partner accrual failed');
  }

  protected async pass(): Promise<number> {
    const db = this.ctx.db;
    const approved = await db
      .select({ userId: partners.userId, planId: partners.planId, approvedAt: partners.approvedAt })
      .from(partners)
      .where(eq(partners.status, PartnerStatus.APPROVED));
    if (!approved.length) return 0;
    const byUser = new Map<number, PartnerInfo>(approved.map((p) => [p.userId, p]));
    const plans = new Map((await db.select().from(partnerPlans)).map((p) => [p.id, p]));
    const inviters = await invitersOf(db, [...byUser.keys()]);
    const clients = await realUsersInvitedBy(db, [...byUser.keys()]);
    const directOf = new Map(clients.map((c) => [c.id, c.invitedBy!]));

    /** The direct partner's plan and the payees of each tier (approved partners up the invite chain). */
    const chainOf = (clientId: number): { plan: PlanRow; payees: Payee[] } | null => {
      const direct = byUser.get(directOf.get(clientId) ?? -1);
      const plan = direct?.planId ? plans.get(direct.planId) : undefined;
      if (!direct || !plan) return null;
      const payees: Payee[] = [];
      let current: PartnerInfo | undefined = direct;
      const seen = new Set<number>([clientId]);
      for (let tier = 1; tier <= plan.tierShares.length && current && !seen.has(current.userId); tier++) {
        seen.add(current.userId);
        if (current.approvedAt)
          payees.push({ partnerUserId: current.userId, tier, share: dec(plan.tierShares[tier - 1]!), approvedAt: current.approvedAt });
        current = byUser.get(inviters.get(current.userId) ?? -1);
      }
      return { plan, payees };
    };

    let posted = 0;
    posted += await this.accrueCloses([...directOf.keys()], chainOf);
    posted += await this.accrueCpa([...directOf.keys()], chainOf);
    posted += await this.clawBack([...directOf.keys()]);
    return posted;
  }

  /**
   * Reads a stream of sources (closes, reversals) from its durable cursor, read again ACCRUAL_OVERLAP_MS
   * back, page by page in (time, id) order, and hands each page the sources not marked yet (`mark` of
   * each); then moves the cursor on, never backwards (a slower pass of another server leaves a later
   * cursor as it is). Answers what the pages posted.
   */
  private async eachUnmarked<T extends { id: number }>(
    cursorName: string,
    read: (since: Date, after: { at: Date; id: number } | null) => Promise<T[]>,
    timeOf: (row: T) => Date,
    mark: (row: T) => string,
    handle: (row: T) => Promise<number>,
  ): Promise<number> {
    const db = this.ctx.db;
    const [cursor] = await db.select().from(partnerCursors).where(eq(partnerCursors.name, cursorName)).limit(1);
    const since = new Date((cursor?.at.getTime() ?? 0) - ACCRUAL_OVERLAP_MS);
    let after: { at: Date; id: number } | null = null;
    let newest = cursor?.at ?? new Date(0);
    let posted = 0;
    for (;;) {
      const page = await read(since, after);
      if (!page.length) break;
      const marks = await db
        .select({ source: partnerAccrualMarks.source })
        .from(partnerAccrualMarks)
        .where(inArray(partnerAccrualMarks.source, page.map(mark)));
      const done = new Set(marks.map((m) => m.source));
      for (const row of page) if (!done.has(mark(row))) posted += await handle(row);
      const last = page[page.length - 1]!;
      after = { at: timeOf(last), id: last.id };
      if (timeOf(last) > newest) newest = timeOf(last);
      if (page.length < PAGE) break;
    }
    await db
      .insert(partnerCursors)
      .values({ name: cursorName, at: newest, id: 0 })
      .onConflictDoUpdate({ target: partnerCursors.name, set: { at: sql`greatest(${partnerCursors.at}, excluded.at)` } });
    return posted;
  }

  private async accrueCloses(
    clientIds: number[],
    chainOf: (clientId: number) => { plan: PlanRow; payees: Payee[] } | null,
  ): Promise<number> {
    if (!clientIds.length) return 0;
    return this.eachUnmarked(
      CURSOR,
      (since, after) => closedOrdersOf(this.ctx.db, clientIds, since, after, PAGE),
      (o) => o.completedAt,
      (o) => `order:${o.id}`,
      async (order) => {
        const chain = chainOf(order.userId);
        if (!chain) return 0;
        const category = this.ctx.services.market.symbol(order.symbolId)?.categoryKey ?? '';
        const perLot = dec(chain.plan.perLot[category] ?? chain.plan.perLot['*'] ?? 0);
        const lotBase = dec(order.quantity).times(perLot);
        const feeBase = dec(order.fee).times(dec(chain.plan.feeShare)).div(100);
        const payees = chain.payees.filter((p) => p.approvedAt.getTime() <= order.completedAt.getTime());
        return this.accrue(`order:${order.id}`, 'order', order.id, order.userId, payees, [
          { kind: 'lot', base: lotBase, lots: dec(order.quantity) },
          { kind: 'fee', base: feeBase, lots: new D(0) },
        ]);
      },
    );
  }

  /**
   * Claws back every commission (each tier) paid on a referred client's trade that staff reversed:
   * once per trade (its mark 'clawback:order:<id>'), in one transaction that also marks the trade as
   * weighed (an accrual that has not got to it yet pays nothing) and posts one ledger transaction:
   * each partner's commission payable back to the house's fee revenue, and what was already paid out
   * from the partner's trading balance (entry type partner_clawback). A balance that cannot cover it
   * gives what it has (a user balance never goes below zero); the rest is logged as not recovered.
   */
  private async clawBack(clientIds: number[]): Promise<number> {
    if (!clientIds.length) return 0;
    return this.eachUnmarked(
      REVERSALS,
      (since, after) => reversedOrdersOf(this.ctx.db, clientIds, since, after, PAGE),
      (o) => o.reversedAt,
      (o) => `clawback:order:${o.id}`,
      (order) => this.clawBackOrder(order.id, order.userId),
    );
  }

  private async clawBackOrder(orderId: number, clientUserId: number): Promise<number> {
    const ledger = this.ctx.services.ledger;
    const source = `order:${orderId}`;
    // The partners paid on it are locked first, as the accrual locks them before it marks a close: the
    // two never wait on each other in a cycle. A partner paid in the meantime is locked below (that
    // accrual has committed by then: this transaction's mark of the close waited for it).
    const known = await this.ctx.db
      .selectDistinct({ partnerUserId: partnerCommissions.partnerUserId })
      .from(partnerCommissions)
      .where(and(eq(partnerCommissions.sourceType, 'order'), eq(partnerCommissions.sourceId, orderId)));
    const ids = known.map((k) => k.partnerUserId).sort((x, y) => x - y);
    const run = <T>(fn: (tx: Tx) => Promise<T>) => (ids.length ? ledger.withLockedUsers(ids, (tx) => fn(tx)) : this.ctx.db.transaction(fn));
    return run(async (tx) => {
      const [mark] = await tx
        .insert(partnerAccrualMarks)
        .values({ source: `clawback:${source}` })
        .onConflictDoNothing()
        .returning();
      if (!mark) return 0;
      // Weighed from now on: an accrual of this close still running waits for this insert and then pays nothing.
      await tx.insert(partnerAccrualMarks).values({ source }).onConflictDoNothing();
      const paid = await tx
        .select()
        .from(partnerCommissions)
        .where(
          and(
            eq(partnerCommissions.sourceType, 'order'),
            eq(partnerCommissions.sourceId, orderId),
            ne(partnerCommissions.kind, 'clawback'),
          ),
        );
      if (!paid.length) return 0;
      const partnerIds = [...new Set(paid.map((c) => c.partnerUserId))].sort((a, b) => a - b);
      const postings = [];
      const rows = [];
      for (const partnerUserId of partnerIds) {
        const { balance: cash } = await ledger.lockUser(tx, partnerUserId);
        const tiers = new Map<number, Dec>();
        for (const c of paid.filter((p) => p.partnerUserId === partnerUserId))
          tiers.set(c.tier, (tiers.get(c.tier) ?? new D(0)).plus(dec(c.amount)));
        const owed = [...tiers.values()].reduce((a, v) => a.plus(v), new D(0));
        const payable = D.max(0, dec(await userAccountBalance(tx, partnerUserId, 'commission')));
        const fromPayable = D.min(owed, payable);
        const fromCash = D.min(owed.minus(fromPayable), D.max(0, cash));
        let recovered = fromPayable.plus(fromCash);
        if (recovered.lt(owed)) {
          // The rest is the partner's debt to the house: withheld from their next commissions.
          const short = owed.minus(recovered);
          await tx
            .insert(partnerDebts)
            .values({ partnerUserId, amount: moneyStr(short) })
            .onConflictDoUpdate({
              target: partnerDebts.partnerUserId,
              set: { amount: sql`${partnerDebts.amount} + ${moneyStr(short)}`, updatedAt: new Date() },
            });
          this.ctx.log.warn(
            { orderId, partnerUserId, owed: owed.toString(), recovered: recovered.toString(), debt: short.toString() },
            'partner clawback not fully recovered: the rest is withheld from their next commissions',
          );
        }
        const memo = `#${orderId}`;
        postings.push(
          {
            account: { userId: partnerUserId, kind: 'commission' as const },
            amount: fromPayable.neg(),
            type: PARTNER_ENTRY.clawback,
            memo,
          },
          { account: { userId: partnerUserId, kind: 'cash' as const }, amount: fromCash.neg(), type: PARTNER_ENTRY.clawback, memo },
          { account: { house: 'fees' as const }, amount: fromPayable.plus(fromCash), type: PARTNER_ENTRY.clawback, memo },
        );
        for (const [tier, amount] of [...tiers].sort(([a], [b]) => a - b)) {
          const taken = D.min(amount, recovered);
          recovered = recovered.minus(taken);
          if (taken.isZero()) continue;
          rows.push({
            partnerUserId,
            clientUserId,
            tier,
            kind: 'clawback',
            sourceType: 'order',
            sourceId: orderId,
            amount: moneyStr(taken.neg()),
          });
        }
      }
      const result = await ledger.post(tx, {
        kind: PARTNER_ENTRY.clawback,
        isDemo: false,
        refType: 'order',
        refId: orderId,
        idemKey: `partner:clawback:${source}`,
        duplicateIsError: true,
        postings,
      });
      const txId = 'txId' in result ? result.txId : null;
      if (rows.length) await tx.insert(partnerCommissions).values(rows.map((r) => ({ ...r, ledgerTxId: txId })));
      return rows.length;
    });
  }

  private async accrueCpa(clientIds: number[], chainOf: (clientId: number) => { plan: PlanRow; payees: Payee[] } | null): Promise<number> {
    const db = this.ctx.db;
    const marked = clientIds.length
      ? await db
          .select({ source: partnerAccrualMarks.source })
          .from(partnerAccrualMarks)
          .where(
            inArray(
              partnerAccrualMarks.source,
              clientIds.map((id) => `cpa:${id}`),
            ),
          )
      : [];
    const done = new Set(marked.map((m) => m.source));
    const waiting = clientIds.filter((id) => !done.has(`cpa:${id}`) && dec(chainOf(id)?.plan.cpaAmount ?? 0).gt(0));
    if (!waiting.length) return 0;
    const deposits = await finishedDepositsOf(db, waiting);
    let posted = 0;
    for (const clientId of waiting) {
      const chain = chainOf(clientId)!;
      const first = deposits.find((d) => d.userId === clientId && dec(d.creditedUsd ?? 0).gte(dec(chain.plan.cpaThreshold)));
      if (!first) continue;
      posted += await this.accrue(`cpa:${clientId}`, 'cpa', first.id, clientId, chain.payees, [
        { kind: 'cpa', base: dec(chain.plan.cpaAmount), lots: new D(0) },
      ]);
    }
    return posted;
  }

  /**
   * Marks a source and posts its commissions, tier by tier, in one transaction that first locks the
   * payees' accounts (user rows before house rows, as every money movement does). A source already
   * marked (another pass or server got there first) posts nothing.
   */
  private async accrue(
    source: string,
    sourceType: string,
    sourceId: number,
    clientUserId: number,
    payees: Payee[],
    parts: { kind: string; base: Dec; lots: Dec }[],
  ): Promise<number> {
    const ledger = this.ctx.services.ledger;
    const work = async (tx: Tx) => {
      const [mark] = await tx.insert(partnerAccrualMarks).values({ source }).onConflictDoNothing().returning();
      if (!mark) return 0;
      let posted = 0;
      for (const payee of payees) {
        const amounts = parts.map((p) => ({ ...p, amount: cents(p.base.times(payee.share).div(100)) })).filter((p) => p.amount.gt(0));
        const total = amounts.reduce((a, p) => a.plus(p.amount), new D(0));
        if (total.isZero()) continue;
        // A debt from a clawback not recovered before is withheld first (read under the partner's lock).
        const [debt] = await tx.select().from(partnerDebts).where(eq(partnerDebts.partnerUserId, payee.partnerUserId));
        const withheld = D.min(total, dec(debt?.amount ?? 0));
        const credited = total.minus(withheld);
        let txId: number | null = null;
        if (credited.gt(0)) {
          const result = await ledger.post(tx, {
            kind: PARTNER_ENTRY.commission,
            isDemo: false,
            refType: sourceType,
            refId: sourceId,
            idemKey: `partner:${source}:${payee.partnerUserId}:${payee.tier}`,
            postings: [
              { account: { house: 'fees' }, amount: credited.neg(), type: PARTNER_ENTRY.commission, memo: `${source} tier ${payee.tier}` },
              {
                account: { userId: payee.partnerUserId, kind: 'commission' },
                amount: credited,
                type: PARTNER_ENTRY.commission,
                memo: `${source} tier ${payee.tier}`,
              },
            ],
          });
          if (!('txId' in result)) continue;
          txId = result.txId;
        }
        if (withheld.gt(0)) {
          await tx
            .update(partnerDebts)
            .set({ amount: sql`${partnerDebts.amount} - ${moneyStr(withheld)}`, updatedAt: new Date() })
            .where(eq(partnerDebts.partnerUserId, payee.partnerUserId));
        }
        await tx.insert(partnerCommissions).values([
          ...amounts.map((p) => ({
            partnerUserId: payee.partnerUserId,
            clientUserId,
            tier: payee.tier,
            kind: p.kind,
            sourceType,
            sourceId,
            amount: moneyStr(p.amount),
            lots: moneyStr(p.lots),
            ledgerTxId: txId,
          })),
          ...(withheld.gt(0)
            ? [
                {
                  partnerUserId: payee.partnerUserId,
                  clientUserId,
                  tier: payee.tier,
                  kind: 'debt_recovery',
                  sourceType,
                  sourceId,
                  amount: moneyStr(withheld.neg()),
                  lots: '0',
                  ledgerTxId: txId,
                },
              ]
            : []),
        ]);
        posted += 1;
      }
      return posted;
    };
    if (!payees.length) return this.ctx.db.transaction(work);
    return ledger.withLockedUsers(
      [...new Set(payees.map((p) => p.partnerUserId))].sort((a, b) => a - b),
      (tx) => work(tx),
    );
  }
}
