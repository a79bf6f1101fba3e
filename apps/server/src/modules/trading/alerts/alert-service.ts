import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { dec, fixed } from '@tp/contract/decimal';
import { pushMessage } from '@tp/contract/pushes';
import type { AppContext, AuthUser } from '../../../context.ts';
import { fail, invalid, notFound } from '../../../http/errors.ts';
import { t } from '../../../http/i18n.ts';
import { priceAlerts } from '../db/schema.ts';
import { BusChannels } from '../../../platform/bus-channels.ts';
import type { Tick } from '../../market/index.ts';
import { parseField } from '../admission/order-checks.ts';
import { alertView } from '../views/alert-view.ts';

type AlertRow = typeof priceAlerts.$inferSelect;

/** Bus channel telling the server that watches prices (the leader) that a user's alerts changed. */
const ALERTS_CHANGED = 'trading:alerts-changed';
/** Safety net: the watched alerts are read again from the database this often. */
const RELOAD_MS = 30_000;

/**
 * Price alerts. Any server sets and removes them; the elected leader watches the prices: each symbol's
 * waiting alerts are held in memory, checked on every accepted tick, and fired by a guarded update
 * (`fired_at is null`), so an alert fires once across servers, restarts and failovers. Firing sends
 * an ALERT push and, when chosen, an email.
 */
export class AlertService {
  private readonly watched = new Map<number, AlertRow[]>();
  private unsubscribeTick: (() => void) | null = null;
  private unsubscribeBus: (() => void) | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private firing: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: AppContext) {}

  private view(row: AlertRow) {
    return alertView(row, this.ctx.services.market);
  }

  async list(userId: number, page: number, limit: number) {
    const where = eq(priceAlerts.userId, userId);
    const [rows, [counted]] = await Promise.all([
      this.ctx.db
        .select()
        .from(priceAlerts)
        .where(where)
        .orderBy(sql`${priceAlerts.firedAt} is not null`, desc(priceAlerts.firedAt), desc(priceAlerts.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.ctx.db.select({ n: count() }).from(priceAlerts).where(where),
    ]);
    return { data: rows.map((r) => this.view(r)), total: Number(counted?.n ?? 0), limit: this.ctx.config.MAX_PRICE_ALERTS };
  }

  async add(user: AuthUser, lang: string, input: { forex_id: number; price?: string; side: 'bid' | 'ask'; email: 0 | 1 }) {
    const market = this.ctx.services.market;
    const sym = market.symbol(input.forex_id);
    if (!sym || !sym.visible) throw invalid('trading.symbol_not_found');
    const target = parseField(input.price, 'price', sym.pricePrecision);
    const quote = market.quote(sym.id);
    if (!quote) throw fail('trading.quote_not_live');
    const now = dec(input.side === 'ask' ? quote.ask : quote.bid);
    if (now.eq(target)) throw invalid('trading.alert_at_current_price', { price: fixed(now, sym.pricePrecision) });
    if (input.email && !user.email) throw invalid('trading.alert_no_email');
    const row = await this.ctx.db.transaction(async (tx) => {
      // Counted under a lock on the user's alerts so that two adds at once cannot pass the limit together.
      await tx.execute(sql`select pg_advisory_xact_lock(${7_100_000_000 + user.id})`);
      const [active] = await tx
        .select({ n: count() })
        .from(priceAlerts)
        .where(and(eq(priceAlerts.userId, user.id), isNull(priceAlerts.firedAt)));
      const max = this.ctx.config.MAX_PRICE_ALERTS;
      if (Number(active?.n ?? 0) >= max) throw fail('trading.alert_limit', { max });
      const [inserted] = await tx
        .insert(priceAlerts)
        .values({
          userId: user.id,
          symbolId: sym.id,
          side: input.side,
          direction: target.gt(now) ? 1 : -1,
          price: target.toString(),
          email: input.email ? user.email : null,
          lang,
        })
        .returning();
      return inserted!;
    });
    // Watched here at once when this server watches; the others (the leader) learn it through the bus.
    if (this.unsubscribeTick) this.watch(row);
    this.changed(row.userId);
    return this.view(row);
  }

  async remove(userId: number, id: number): Promise<void> {
    const gone = await this.ctx.db
      .delete(priceAlerts)
      .where(and(eq(priceAlerts.id, id), eq(priceAlerts.userId, userId)))
      .returning({ id: priceAlerts.id });
    if (!gone.length) throw notFound('trading.alert_not_found');
    for (const [symbolId, list] of this.watched)
      this.watched.set(
        symbolId,
        list.filter((a) => a.id !== id),
      );
    this.changed(userId);
  }

  private changed(userId: number): void {
    this.ctx.bus.publish(ALERTS_CHANGED, { userId });
  }

  // ---------------------------------------------------------------- watching (leader)

  async start(): Promise<void> {
    await this.reload();
    this.unsubscribeTick = this.ctx.services.market.onTick(this.onTick);
    this.unsubscribeBus = this.ctx.bus.subscribe(ALERTS_CHANGED, () => void this.reload().catch(this.logError));
    this.reloadTimer = setInterval(() => void this.reload().catch(this.logError), RELOAD_MS);
    this.reloadTimer.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribeTick?.();
    this.unsubscribeBus?.();
    if (this.reloadTimer) clearInterval(this.reloadTimer);
    this.unsubscribeTick = this.unsubscribeBus = this.reloadTimer = null;
    await this.firing;
  }

  /** Settled once every alert crossed so far has fired (tests). */
  idle(): Promise<unknown> {
    return this.firing;
  }

  private readonly logError = (err: unknown) => this.ctx.log.error({ err }, 'price alerts failed');

  private async reload(): Promise<void> {
    const rows = await this.ctx.db.select().from(priceAlerts).where(isNull(priceAlerts.firedAt)).orderBy(asc(priceAlerts.id));
    this.watched.clear();
    for (const row of rows) this.watch(row);
  }

  private watch(row: AlertRow): void {
    const list = this.watched.get(row.symbolId);
    if (!list) this.watched.set(row.symbolId, [row]);
    else if (!list.some((a) => a.id === row.id)) list.push(row);
  }

  private readonly onTick = (tick: Tick): void => {
    const list = this.watched.get(tick.symbolId);
    if (!list?.length) return;
    const crossed: { row: AlertRow; at: string }[] = [];
    const waiting: AlertRow[] = [];
    for (const row of list) {
      const at = row.side === 'ask' ? tick.ask : tick.bid;
      const reached = row.direction === 1 ? dec(at).gte(row.price) : dec(at).lte(row.price);
      if (reached) crossed.push({ row, at });
      else waiting.push(row);
    }
    if (!crossed.length) return;
    this.watched.set(tick.symbolId, waiting);
    this.firing = Promise.all([this.firing, ...crossed.map(({ row, at }) => this.fire(row, at).catch(this.logError))]);
  };

  private async fire(row: AlertRow, at: string): Promise<void> {
    const [fired] = await this.ctx.db
      .update(priceAlerts)
      .set({ firedAt: new Date(), firedPrice: at })
      .where(and(eq(priceAlerts.id, row.id), isNull(priceAlerts.firedAt)))
      .returning();
    if (!fired) return;
    const alert = this.view(fired);
    this.ctx.bus.publish(BusChannels.userChannel(fired.userId), pushMessage('ALERT', alert));
    this.ctx.services.webPush.alert(fired.userId, alert);
    // Alerts can be set again as soon as they fire: the e-mails they send are capped per account and day
    // (shared by every server through the throttle); the push still goes out.
    const mailBudget = fired.email
      ? await this.ctx.services.throttle.hit(`alert-mail:${fired.userId}`, this.ctx.config.MAX_ALERT_EMAILS_PER_DAY, 86_400_000)
      : null;
    if (mailBudget && !mailBudget.allowed) this.ctx.log.info({ userId: fired.userId }, 'price alert e-mail over the daily cap: not sent');
    if (fired.email && mailBudget?.allowed) {
      const params = { symbol: alert.symbol, side: t(fired.lang, `trading.alert_side_${alert.side}`), price: alert.fired_price };
      this.ctx.services.codes.notify(
        'email',
        fired.email,
        t(fired.lang, 'trading.alert_subject', params),
        t(fired.lang, 'trading.alert_body', params),
      );
    }
  }
}
