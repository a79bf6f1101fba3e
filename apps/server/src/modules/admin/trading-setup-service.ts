import { dec } from '@tp/contract/decimal';
import type { AdminOrder, AdminSymbol } from '@tp/contract/schemas/admin';
import type { z } from 'zod';
import { FEE_RATE_MAX, type SymbolSaveInput } from '@tp/contract/schemas/admin';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import type { AppContext, AuthStaff } from '../../context.ts';
import { fail, invalid, notFound } from '../../http/errors.ts';
import {
  findCategory,
  findSymbol,
  leveragesBySymbol,
  listCategories,
  listSymbols,
  replaceLeverages,
  saveCategory,
  type SymbolChanges,
  type SymbolRow,
  updateSymbol,
} from '../market/index.ts';
import { findOrder, reverseClosedOrder } from '../trading/index.ts';
import type { Applied, ChangeKind } from './change-service.ts';
import { EMPTY_PREVIEW, symbolChangePreview } from './change-preview.ts';
import { readSetting } from './setup-repository.ts';
import { adminOrderView } from './user-admin-service.ts';

const symbolView = (s: SymbolRow, leverages: number[]): AdminSymbol => ({
  id: s.id,
  code: s.code,
  show_code: s.showCode,
  category_id: s.categoryId,
  price_precision: s.pricePrecision,
  contract_size: s.contractSize,
  min_lots: s.minLots,
  max_lots: s.maxLots,
  step: s.step,
  spread: s.spread,
  deviation_pct: s.deviationPct,
  max_quote_age_sec: s.maxQuoteAgeSec,
  fee_rate: s.feeRate,
  margin_mode: s.marginMode,
  fixed_margin: s.fixedMargin ?? '',
  leverages,
  timezone: s.timezone,
  schedule: s.schedule,
  holidays: s.holidays,
  visible: s.visible,
  tradable: s.tradable,
  sort: s.sort,
  swap_type: s.swapType,
  swap_long: dec(s.swapLong).toString(),
  swap_short: dec(s.swapShort).toString(),
  swap_triple_day: s.swapTripleDay ?? -1,
});

type SymbolSave = z.infer<typeof SymbolSaveInput>;

/** Symbols, categories and staff closes. Symbol edits are stored, then the market reloads them so quotes follow. */
export class TradingSetupService {
  constructor(private readonly ctx: AppContext) {}

  async symbols(): Promise<AdminSymbol[]> {
    const [rows, leverages] = await Promise.all([listSymbols(this.ctx.db), leveragesBySymbol(this.ctx.db)]);
    return rows.map((s) => symbolView(s, leverages.get(s.id) ?? []));
  }

  /** Saves a symbol's terms, or proposes them when four-eyes is on. */
  saveSymbol(who: AuthStaff, input: SymbolSave): Promise<AdminSymbol | { pending_change_id: number }> {
    return this.ctx.services.changes.saveOrPropose<SymbolSave, AdminSymbol>('symbol', who, input);
  }

  /** The symbol kind of change: one way in for a direct save and an approval. */
  readonly symbolChange: ChangeKind<SymbolSave, AdminSymbol> = {
    apply: (tx, who, input) => this.applySymbol(tx, who, input),
    settle: () => this.ctx.services.market.reloadSymbols(),
    preview: (input, before, after) => symbolChangePreview(this.ctx, input.id, before, after),
  };

  /** Checks a symbol change against the symbol as stored now, writes it and audits it (in the caller's transaction). */
  private async applySymbol(tx: DbOrTx, who: AuthStaff, input: SymbolSave): Promise<Applied<AdminSymbol>> {
    const before = await findSymbol(tx, input.id, true);
    if (!before) throw notFound();
    const changes = this.changesOf(input);
    const merged = { ...before, ...changes };
    this.check(merged);
    // A spread wider than a tenth of the price, or a list of more than 20 leverages, is a typing error.
    const mid = this.ctx.services.market.quote(before.id)?.mid;
    if (input.spread !== undefined && mid !== undefined && dec(input.spread).gt(dec(mid).div(10))) throw invalid('admin.spread_too_wide');
    if (input.leverages && (input.leverages.length === 0 || input.leverages.length > 20)) throw invalid('admin.invalid_list');
    if (input.fee_rate !== undefined) await this.checkFeeRate(tx, input.fee_rate);
    if (input.category_id && !(await findCategory(tx, input.category_id))) throw invalid('admin.category_unknown');
    const leveragesBefore = (await leveragesBySymbol(tx)).get(before.id) ?? [];
    await updateSymbol(tx, before.id, changes);
    if (input.leverages)
      await replaceLeverages(
        tx,
        before.id,
        [...new Set(input.leverages)].sort((a, b) => a - b),
      );
    const after = (await findSymbol(tx, before.id))!;
    const leveragesAfter = (await leveragesBySymbol(tx)).get(before.id) ?? [];
    const views = { before: symbolView(before, leveragesBefore), after: symbolView(after, leveragesAfter) };
    await this.ctx.services.staff.audit(tx, who, 'symbol.save', { type: 'symbol', id: before.id }, views.before, views.after);
    // The fields the change sets, as the symbol held them and as it holds them after the change.
    const fields = Object.keys(input).filter((k) => k !== 'id' && k in views.after && input[k as keyof SymbolSave] !== undefined);
    const pick = (v: AdminSymbol) => Object.fromEntries(fields.map((k) => [k, v[k as keyof AdminSymbol]]));
    return { result: views.after, target: String(before.id), label: before.code, before: pick(views.before), after: pick(views.after) };
  }

  async categories() {
    return (await listCategories(this.ctx.db)).map((c) => ({ id: c.id, key: c.key, sort: c.sort }));
  }

  async saveCategory(who: AuthStaff, input: { id?: number; key: string; sort: number }) {
    const saved = await this.ctx.db.transaction(async (tx) => {
      const before = input.id ? await findCategory(tx, input.id) : null;
      if (input.id && !before) throw notFound();
      const row = await saveCategory(tx, input.id, { key: input.key, sort: input.sort }).catch((err: unknown) => {
        if (String((err as { cause?: { code?: string } })?.cause?.code ?? (err as { code?: string }).code) === '23505')
          throw fail('admin.category_key_taken');
        throw err;
      });
      await this.ctx.services.staff.audit(tx, who, 'category.save', { type: 'category', id: row!.id }, before ?? null, row);
      return { id: row!.id, key: row!.key, sort: row!.sort };
    });
    await this.ctx.services.market.reloadSymbols();
    return saved;
  }

  /** Closes an open position at the current price (closed_type 5) through the trading module, exactly once. */
  async closePosition(who: AuthStaff, orderId: number) {
    const before = await findOrder(this.ctx.db, orderId);
    if (!before) throw notFound();
    await this.ctx.services.trading.closeOrderByStaff(orderId);
    const after = (await findOrder(this.ctx.db, orderId))!;
    await this.ctx.services.staff.audit(
      this.ctx.db,
      who,
      'order.close',
      { type: 'order', id: orderId },
      { status: before.status },
      { status: after.status, closed_type: after.closedType, update_price: after.closePrice, fact_profits: after.profit },
    );
    return adminOrderView({
      order: after,
      code: this.ctx.services.market.symbol(after.symbolId)?.showCode ?? null,
      email: null,
      uid: null,
    });
  }

  /**
   * A closed trade's reversal as a four-eyes change (kind 'reversal'): with FOUR_EYES on a risk member
   * proposes it (a dry run checks it) and another approves it; the reversal, its ledger transaction and
   * its audit row are one database transaction either way.
   */
  readonly reversalChange: ChangeKind<{ id: number; reason: string }, AdminOrder> = {
    apply: async (tx, who, input) => {
      const { before, after } = await reverseClosedOrder(this.ctx, tx as Tx, who, input.id, input.reason);
      await this.ctx.services.staff.audit(
        tx,
        who,
        'order.reverse',
        { type: 'order', id: input.id },
        { reversed: false, fact_profits: before.profit, trade_fee: before.fee },
        { reversed: true, reason: input.reason, user_id: after.userId },
      );
      const result = adminOrderView({
        order: after,
        code: this.ctx.services.market.symbol(after.symbolId)?.showCode ?? null,
        email: null,
        uid: null,
      });
      return {
        result,
        target: String(after.id),
        label: `#${after.id} ${result.symbol}`,
        before: { reversed: false, fact_profits: before.profit, trade_fee: before.fee },
        after: { reversed: true, reason: input.reason },
      };
    },
    settle: async () => undefined,
    preview: async () => EMPTY_PREVIEW,
  };

  /** Reverses a closed trade (four-eyes when on): see reversalChange. */
  reversePosition(who: AuthStaff, id: number, reason: string) {
    return this.ctx.services.changes.saveOrPropose<{ id: number; reason: string }, AdminOrder>('reversal', who, { id, reason });
  }

  private changesOf(input: SymbolSave): SymbolChanges {
    const c: SymbolChanges = {};
    if (input.show_code) c.showCode = input.show_code;
    if (input.category_id) c.categoryId = input.category_id;
    if (input.price_precision !== undefined) c.pricePrecision = input.price_precision;
    if (input.contract_size !== undefined) c.contractSize = input.contract_size;
    if (input.min_lots !== undefined) c.minLots = input.min_lots;
    if (input.max_lots !== undefined) c.maxLots = input.max_lots;
    if (input.step !== undefined) c.step = input.step;
    if (input.spread !== undefined) c.spread = input.spread;
    if (input.deviation_pct !== undefined) c.deviationPct = input.deviation_pct;
    if (input.max_quote_age_sec !== undefined) c.maxQuoteAgeSec = input.max_quote_age_sec;
    if (input.fee_rate !== undefined) c.feeRate = input.fee_rate;
    if (input.margin_mode !== undefined) c.marginMode = input.margin_mode;
    if (input.fixed_margin !== undefined) c.fixedMargin = input.fixed_margin;
    if (input.schedule !== undefined) c.schedule = input.schedule;
    if (input.holidays !== undefined) c.holidays = input.holidays;
    if (input.visible !== undefined) c.visible = input.visible;
    if (input.tradable !== undefined) c.tradable = input.tradable;
    if (input.sort !== undefined) c.sort = input.sort;
    if (input.swap_type !== undefined) c.swapType = input.swap_type;
    if (input.swap_long !== undefined) c.swapLong = input.swap_long;
    if (input.swap_short !== undefined) c.swapShort = input.swap_short;
    if (input.swap_triple_day !== undefined) c.swapTripleDay = input.swap_triple_day < 0 ? null : input.swap_triple_day;
    return c;
  }

  /** A rate within the range of the fee type in force (USD per lot, or a fraction of the margin). */
  private async checkFeeRate(db: DbOrTx, rate: string) {
    const max = FEE_RATE_MAX[(await readSetting(db, 'trade_fee_type'))?.trim() === '2' ? 2 : 1]!;
    if (dec(rate).gt(max)) throw invalid('admin.fee_rate_range', { max });
  }

  private check(s: SymbolRow) {
    if (dec(s.contractSize).lte(0) || dec(s.step).lte(0) || dec(s.minLots).lte(0)) throw invalid('admin.symbol_positive');
    if (dec(s.minLots).gt(s.maxLots)) throw invalid('admin.symbol_lots_order');
    if (s.marginMode === 2 && (!s.fixedMargin || dec(s.fixedMargin).lte(0))) throw invalid('admin.fixed_margin_required');
    if (s.schedule.some((d) => d.open >= d.close)) throw invalid('admin.schedule_order');
    // Two sessions of one day sharing minutes would make the week ambiguous to edit (one may close as the next opens).
    if (s.schedule.some((a, i) => s.schedule.some((b, j) => i !== j && a.day === b.day && a.open < b.close && b.open < a.close)))
      throw invalid('admin.schedule_overlap');
    // A threshold of 0 would hold every move; above 100% nothing could be held.
    if (dec(s.deviationPct).lte(0) || dec(s.deviationPct).gt(100)) throw invalid('admin.deviation_range');
  }
}
