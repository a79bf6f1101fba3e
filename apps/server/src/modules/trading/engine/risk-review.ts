import type { AppContext } from '../../../context.ts';
import { fixed } from '@tp/contract/decimal';
import { t } from '../../../http/i18n.ts';
import { userContacts } from '../../auth/index.ts';
import type { MarketService } from '../../market/index.ts';
import { type PriceBoard, atOrBelow, figuresOf, floatingOf, riskLines } from './figures.ts';
import type { LiveAccount, LiveBooks } from './live-books.ts';
import { orderView } from '../views/order-view.ts';
import { marginCallNotice, publishNotice, publishTrade } from '../events/pushes.ts';
import { type RiskEventRow, insertRiskEvents } from '../db/repository.ts';
import type { TradingSettings } from '../admission/settings.ts';

/** The engine's look at one account: margin call state and its risk events, stop-out checks, risk lines, FOREX_TRADE. */
export class RiskReview {
  /** Risk events waiting for the next write, and the write under way (one at a time, so ids keep their order). */
  private pending: { row: RiskEventRow; committed?: Promise<boolean> }[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly live: LiveBooks,
    private readonly queueRisk: (acc: LiveAccount, triggeredAt?: number) => void,
  ) {}

  private get market(): MarketService {
    return this.ctx.services.market;
  }

  /** Prices with the conversion symbols, so that risk lines are armed on those too. */
  private readonly board: PriceBoard = {
    quote: (id) => this.market.quote(id),
    quoteToUsd: (id) => this.market.quoteToUsd(id),
    conversionOf: (id) => {
      const sym = this.market.symbol(id);
      const conv = sym?.quoteCurrency !== 'USD' && sym?.usdConversionCode ? this.market.symbolByCode(sym.usdConversionCode) : undefined;
      return conv ? { symbolId: conv.id, invert: sym!.usdConversionInvert } : null;
    },
  };

  get writing(): boolean {
    return this.flushing !== null || this.pending.length > 0;
  }

  /** Resolves when every risk event recorded so far is written. */
  async written(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /**
   * Records a risk event off the tick's path: the events of one moment go to the database in one
   * statement, so that a price move that puts many accounts in a margin call costs one round trip.
   * An event of a transaction (`committed`) is written only once it resolves true.
   */
  record(
    userId: number,
    kind: 'margin_call' | 'margin_call_end' | 'stop_out',
    riskRate: string | null,
    committed?: Promise<boolean>,
  ): void {
    this.pending.push({ row: { userId, kind, riskRate }, committed });
    this.flushing ??= this.flush();
  }

  private async flush(): Promise<void> {
    // Events of the same tick join the first one's statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      const kept = await Promise.all(batch.map((e) => e.committed ?? true));
      const rows = batch.filter((_, i) => kept[i]).map((e) => e.row);
      await insertRiskEvents(this.ctx.db, rows).catch((err: unknown) =>
        this.ctx.log.error({ err, events: rows.length }, 'risk events not recorded'),
      );
      await this.email(rows).catch((err: unknown) => this.ctx.log.error({ err }, 'risk emails not sent'));
    }
    this.flushing = null;
  }

  /** A margin call and a stop-out are also emailed to the account's address (through the outbox, retried). */
  private async email(rows: RiskEventRow[]): Promise<void> {
    const told = rows.filter((r) => r.kind === 'margin_call' || r.kind === 'stop_out');
    if (!told.length) return;
    const contacts = await userContacts(
      this.ctx.db,
      told.map((r) => r.userId),
    );
    for (const row of told) {
      const email = contacts.get(row.userId)?.email;
      if (!email) continue;
      // Users have no stored language; the emails go in the platform's default language.
      const params = { level: row.riskRate === null ? '-' : `${fixed(row.riskRate, 2)}%` };
      this.ctx.services.codes.notify(
        'email',
        email,
        t(undefined, `trading.${row.kind}_subject`, params),
        t(undefined, `trading.${row.kind}_body`, params),
      );
    }
  }

  /**
   * Looks at an account at current prices: margin call state, a stop-out check when due, and
   * new risk lines in the books (for the margin call level, then for the stop-out level).
   */
  review(acc: LiveAccount, triggeredAt?: number): void {
    const figures = figuresOf(acc.cash, acc.locked, acc.positions.values(), this.market);
    this.live.disarm(acc.lines);
    // The levels of the account's group (the house's where the group sets none).
    const { marginCallLevel, stopOutLevel } = this.settings.accountTerms(acc.userId, acc.isDemo);
    const inCall = atOrBelow(figures, marginCallLevel);
    if (inCall !== acc.marginCall) {
      acc.marginCall = inCall;
      this.record(acc.userId, inCall ? 'margin_call' : 'margin_call_end', figures.riskRate?.toString() ?? null);
      if (inCall) publishNotice(this.ctx, acc.userId, marginCallNotice(figures.riskRate?.toString() ?? null, Date.now()));
    }
    if (atOrBelow(figures, stopOutLevel)) {
      if (!acc.riskQueued) return this.queueRisk(acc, triggeredAt);
      // A job is under way: it is looked at again once that job is done (it may have read the prices before this move).
      acc.recheck = true;
      // Left at the level by a stop-out (what remains is not tradable now): look again at their next tick.
      // A symbol paused by its conversion pair's held jump trades again at that pair's next tick: look again then too.
      const drivers = new Set<number>();
      for (const pos of acc.positions.values()) {
        drivers.add(pos.symbolId);
        const conv = this.board.conversionOf?.(pos.symbolId);
        if (conv) drivers.add(conv.symbolId);
      }
      for (const symbolId of drivers) {
        const mid = this.market.quote(symbolId)?.mid;
        if (mid === undefined) continue;
        acc.lines.push(this.live.armRisk(acc.userId, symbolId, +mid, true), this.live.armRisk(acc.userId, symbolId, +mid, false));
      }
      return;
    }
    if (!acc.positions.size) return;
    const down = riskLines(figures, inCall ? stopOutLevel : marginCallLevel, acc.positions.values(), this.board);
    // Under a margin call, also the prices at which it would end.
    const up = inCall ? riskLines(figures, marginCallLevel, acc.positions.values(), this.board, 'up') : [];
    if (down === 'breached') return this.queueRisk(acc, triggeredAt);
    for (const l of [...down, ...(up === 'breached' ? [] : up)])
      acc.lines.push(this.live.armRisk(acc.userId, l.symbolId, l.level, l.rising));
  }

  /** FOREX_TRADE, computed only if someone reads it (a connected client), at the figures of that moment. */
  pushTrade(acc: LiveAccount): void {
    publishTrade(this.ctx.bus, acc.userId, acc.marginCall, () => ({
      figures: figuresOf(acc.cash, acc.locked, acc.positions.values(), this.market),
      positions: [...acc.positions.values()].map((pos) =>
        orderView(pos.row, this.market.symbol(pos.symbolId), floatingOf(pos, this.market)),
      ),
    }));
  }
}
