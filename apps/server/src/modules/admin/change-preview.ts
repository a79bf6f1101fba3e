import { TradeFeeType } from '@tp/contract/constants';
import { D, type Dec, dec, money } from '@tp/contract/decimal';
import { feeOf, marginOf, type SymbolTerms } from '@tp/contract/formulas';
import type { ChangePreview, FeePreview } from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { findSymbol, leveragesBySymbol, type SymbolRow } from '../market/index.ts';
import { type OpenAccount, requiredMargin } from '../trading/index.ts';
import { readSetting } from './setup-repository.ts';

/**
 * Previews of pending changes to money rules, at the current quotes: what a 1-lot trade pays and
 * needs as margin under the terms in force and under the proposed ones, and which open accounts the
 * change would move.
 */

/** A preview with nothing to show (a change of nothing previewed, or whose target is gone). */
export const EMPTY_PREVIEW: ChangePreview = {
  symbols: [],
  margin_accounts: null,
  level_change_min: '',
  level_change_max: '',
  below_stop_out: null,
  below_margin_call: null,
};

const feeTypeOf = (stored: string | undefined) =>
  stored === undefined || stored.trim() === '1' ? TradeFeeType.PER_LOT : TradeFeeType.PERCENT_OF_MARGIN;

interface Terms extends SymbolTerms {
  leverages: number[];
}

/** A 1-lot trade at the current mid and the symbol's lowest leverage (the largest margin): its margin and fee, '' before a first quote. */
function oneLot(ctx: AppContext, s: SymbolRow, terms: Terms, feeType: number) {
  const leverage = Math.min(...(terms.leverages.length ? terms.leverages : [1]));
  const quote = ctx.services.market.quote(s.id);
  const priced = quote !== undefined || terms.marginMode === 2;
  const margin = priced ? marginOf(terms, 1, quote?.mid ?? 0, leverage, ctx.services.market.quoteToUsd(s.id)) : null;
  const fee = feeType === TradeFeeType.PER_LOT || margin ? feeOf(terms, feeType, 1, margin ?? 0) : null;
  return {
    mid: quote?.mid ?? '',
    leverage,
    margin: margin ? money(margin).toString() : '',
    fee: fee ? money(fee).toString() : '',
  };
}

/** The leverage a position keeps under a new list: its own when still offered, else the highest offered below it, else the lowest. */
function leverageUnder(list: number[], own: number): number {
  if (!list.length || list.includes(own)) return own;
  const below = list.filter((l) => l <= own);
  return below.length ? Math.max(...below) : Math.min(...list);
}

/** The margin level (percent) of an account whose margin is `margin`; null when nothing needs margin. */
const levelOf = (equity: Dec, margin: Dec): Dec | null =>
  margin.isZero() ? null : equity.div(margin).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN);

/** The margin levels that change when a symbol's open positions are margined under other terms at the current mid. */
function marginMoves(ctx: AppContext, s: SymbolRow, old: Terms, next: Terms, accounts: OpenAccount[]) {
  const quote = ctx.services.market.quote(s.id);
  const changes: Dec[] = [];
  if (!quote && old.marginMode !== 2 && next.marginMode !== 2) return changes;
  const rate = ctx.services.market.quoteToUsd(s.id);
  for (const a of accounts) {
    if (!a.positions.some((p) => p.symbolId === s.id)) continue;
    const under = (terms: Terms) =>
      requiredMargin(
        a.positions.map((p) =>
          p.symbolId === s.id
            ? { ...p, margin: marginOf(terms, p.quantity, quote?.mid ?? 0, leverageUnder(terms.leverages, p.leverage), rate) }
            : p,
        ),
      );
    const before = levelOf(a.figures.equity, under(old));
    const after = levelOf(a.figures.equity, under(next));
    if (before === null || after === null || before.eq(after)) continue;
    changes.push(after.minus(before));
  }
  return changes;
}

const MARGIN_FIELDS = ['leverages', 'contract_size', 'margin_mode', 'fixed_margin'];

export async function symbolChangePreview(
  ctx: AppContext,
  symbolId: number,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<ChangePreview> {
  const s = await findSymbol(ctx.db, symbolId, true);
  if (!s) return EMPTY_PREVIEW;
  const leverages = (await leveragesBySymbol(ctx.db)).get(s.id) ?? [];
  const feeType = feeTypeOf(await readSetting(ctx.db, 'trade_fee_type'));
  const old: Terms = { contractSize: s.contractSize, marginMode: s.marginMode, fixedMargin: s.fixedMargin, feeRate: s.feeRate, leverages };
  const pick = <T>(key: string, current: T): T => (key in after ? (after[key] as T) : current);
  const next: Terms = {
    contractSize: pick('contract_size', s.contractSize),
    marginMode: pick('margin_mode', s.marginMode),
    fixedMargin: pick<string | null>('fixed_margin', s.fixedMargin) || null,
    feeRate: pick('fee_rate', s.feeRate),
    leverages: pick('leverages', leverages),
  };
  const a = oneLot(ctx, s, old, feeType);
  const b = oneLot(ctx, s, next, feeType);
  const preview: ChangePreview = {
    ...EMPTY_PREVIEW,
    symbols: [
      {
        id: s.id,
        code: s.code,
        mid: a.mid,
        leverage_before: a.leverage,
        leverage_after: b.leverage,
        fee_before: a.fee,
        fee_after: b.fee,
        margin_before: a.margin,
        margin_after: b.margin,
      },
    ],
  };
  const affectsMargin = MARGIN_FIELDS.some((k) => k in after && JSON.stringify(after[k]) !== JSON.stringify(before[k]));
  if (!affectsMargin) return preview;
  const moves = marginMoves(ctx, s, old, next, await ctx.services.trading.openAccounts());
  return {
    ...preview,
    margin_accounts: moves.length,
    level_change_min: moves.length ? D.min(...moves).toString() : '',
    level_change_max: moves.length ? D.max(...moves).toString() : '',
  };
}

/** A fee change's preview, from the fees screen's own preview of it (`feesPreview`). */
export async function feesChangePreview(ctx: AppContext, feesPreview: () => Promise<FeePreview>): Promise<ChangePreview> {
  // A rate for a symbol deleted since the proposal: nothing to preview (the approval is refused).
  const rows = await feesPreview().catch(() => null);
  if (!rows) return EMPTY_PREVIEW;
  const typeChanged = rows.trade_fee_type !== rows.trade_fee_type_before;
  const leverages = await leveragesBySymbol(ctx.db);
  const symbols = [];
  for (const r of rows.rows) {
    if (!typeChanged && r.fee_rate === r.fee_rate_before) continue;
    const s = await findSymbol(ctx.db, r.id, true);
    const margin = s ? oneLot(ctx, s, { ...s, leverages: leverages.get(s.id) ?? [] }, rows.trade_fee_type).margin : '';
    symbols.push({
      id: r.id,
      code: r.code,
      mid: ctx.services.market.quote(r.id)?.mid ?? '',
      leverage_before: r.leverage,
      leverage_after: r.leverage,
      fee_before: r.fee_before,
      fee_after: r.fee_after,
      margin_before: margin,
      margin_after: margin,
    });
  }
  return { ...EMPTY_PREVIEW, symbols };
}

/** Open accounts whose margin level is at or below a proposed stop-out or margin-call level now. */
export async function settingsChangePreview(ctx: AppContext, changes: Record<string, string | undefined>): Promise<ChangePreview> {
  const { stop_out_level: stopOut, margin_call_level: marginCall } = changes;
  if (stopOut === undefined && marginCall === undefined) return EMPTY_PREVIEW;
  const accounts = await ctx.services.trading.openAccounts();
  const below = (level: string | undefined) =>
    level === undefined ? null : accounts.filter((a) => a.figures.riskRate !== null && a.figures.riskRate.lte(dec(level))).length;
  return { ...EMPTY_PREVIEW, below_stop_out: below(stopOut), below_margin_call: below(marginCall) };
}
