import type { AppContext } from '../../context.ts';
import type { MarketService } from '../market/index.ts';
import { type PriceBoard, atOrBelow, figuresOf, floatingOf, riskLines } from './figures.ts';
import type { LiveAccount, LiveBooks } from './live-books.ts';
import { orderView } from './order-view.ts';
import { publishTrade } from './pushes.ts';
import { insertRiskEvent } from './repository.ts';
import type { TradingSettings } from './settings.ts';

/** The engine's look at one account: margin call state and its risk events, stop-out checks, risk lines, FOREX_TRADE. */
export class RiskReview {
  private readonly writes = new Set<Promise<void>>();

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
    return this.writes.size > 0;
  }

  /** Resolves when every risk event recorded so far is written. */
  async written(): Promise<void> {
    await Promise.all(this.writes);
  }

  /**
   * Looks at an account at current prices: margin call state, a stop-out check when due, and
   * new risk lines in the books (for the margin call level, then for the stop-out level).
   */
  review(acc: LiveAccount, triggeredAt?: number): void {
    const figures = figuresOf(acc.cash, acc.locked, acc.positions.values(), this.market);
    this.live.disarm(acc.lines);
    const inCall = atOrBelow(figures, this.settings.marginCallLevel);
    if (inCall !== acc.marginCall) {
      acc.marginCall = inCall;
      const write = insertRiskEvent(
        this.ctx.db,
        acc.userId,
        inCall ? 'margin_call' : 'margin_call_end',
        figures.riskRate?.toString() ?? null,
      )
        .catch((err: unknown) => this.ctx.log.error({ err }, 'risk event not recorded'))
        .finally(() => this.writes.delete(write));
      this.writes.add(write);
    }
    if (atOrBelow(figures, this.settings.stopOutLevel)) {
      if (!acc.riskQueued) return this.queueRisk(acc, triggeredAt);
      // Left at the level by a stop-out (what remains is not tradable now): look again at their next tick.
      for (const pos of acc.positions.values()) {
        const mid = this.market.quote(pos.symbolId)?.mid;
        if (mid === undefined) continue;
        acc.lines.push(this.live.armRisk(acc.userId, pos.symbolId, +mid, true), this.live.armRisk(acc.userId, pos.symbolId, +mid, false));
      }
      return;
    }
    if (!acc.positions.size) return;
    const down = riskLines(
      figures,
      inCall ? this.settings.stopOutLevel : this.settings.marginCallLevel,
      acc.positions.values(),
      this.board,
    );
    // Under a margin call, also the prices at which it would end.
    const up = inCall ? riskLines(figures, this.settings.marginCallLevel, acc.positions.values(), this.board, 'up') : [];
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
