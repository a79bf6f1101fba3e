import { TradeFeeType } from '@tp/contract/constants';
import { dec, money } from '@tp/contract/decimal';
import { feeOf, marginOf } from '@tp/contract/formulas';
import { FEE_RATE_MAX, type FeePreview } from '@tp/contract/schemas/admin';
import type { AppContext, AuthStaff } from '../../context.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { leveragesBySymbol, listSymbols, type SymbolRow, updateSymbol } from '../market/index.ts';
import { readSetting, writeSetting } from './setup-repository.ts';
import { BusChannels } from '../../platform/bus-channels.ts';
import type { Applied, ChangeKind } from './change-service.ts';
import { feesChangePreview } from './change-preview.ts';

export interface FeeChange {
  trade_fee_type: number;
  rates: { id: number; fee_rate: string }[];
}

const feeType = (stored: string | undefined) =>
  stored === undefined || stored.trim() === '1' ? TradeFeeType.PER_LOT : TradeFeeType.PERCENT_OF_MARGIN;

/**
 * The fee type and the symbols' fee rates (risk role): every change is checked against the range
 * of its type, previewed as what a 1-lot trade on each symbol pays before and after, and audited.
 */
export class FeeService {
  constructor(private readonly ctx: AppContext) {}

  /** Today's terms: the preview of no change. */
  current(): Promise<FeePreview> {
    return this.preview(this.ctx.db, null);
  }

  async preview(db: DbOrTx, change: FeeChange | null): Promise<FeePreview> {
    const [symbols, leverages, storedType] = await Promise.all([listSymbols(db), leveragesBySymbol(db), readSetting(db, 'trade_fee_type')]);
    const typeBefore = feeType(storedType);
    const typeAfter = change?.trade_fee_type ?? typeBefore;
    const newRates = new Map((change?.rates ?? []).map((r) => [r.id, r.fee_rate]));
    for (const id of newRates.keys()) if (!symbols.some((s) => s.id === id)) throw notFound();
    const max = FEE_RATE_MAX[typeAfter]!;
    return {
      trade_fee_type_before: typeBefore,
      trade_fee_type: typeAfter,
      max_rate: max,
      rows: symbols.map((s) => {
        const rate = newRates.get(s.id) ?? s.feeRate;
        const leverage = Math.min(...(leverages.get(s.id) ?? [1]));
        return {
          id: s.id,
          code: s.code,
          leverage,
          fee_rate_before: dec(s.feeRate).toString(),
          fee_rate: dec(rate).toString(),
          fee_before: this.oneLotFee(s, typeBefore, s.feeRate, leverage),
          fee_after: this.oneLotFee(s, typeAfter, rate, leverage),
          in_range: dec(rate).gte(0) && dec(rate).lte(max),
        };
      }),
    };
  }

  /** Saves a change, or proposes it when four-eyes is on. */
  save(who: AuthStaff, change: FeeChange): Promise<FeePreview | { pending_change_id: number }> {
    return this.ctx.services.changes.saveOrPropose<FeeChange, FeePreview>('fees', who, change);
  }

  /** The fees kind of change: one way in for a direct save and an approval. */
  readonly feesChange: ChangeKind<FeeChange, FeePreview> = {
    apply: (tx, who, change) => this.apply(tx, who, change),
    settle: async (change) => {
      await this.ctx.services.trading.settings.reload(this.ctx.db);
      await this.ctx.services.market.reloadSymbols();
      this.ctx.bus.publish(BusChannels.settingsChanged, {
        keys: ['trade_fee_type'],
        values: { trade_fee_type: String(change.trade_fee_type) },
      });
    },
    preview: (change) => feesChangePreview(this.ctx, () => this.preview(this.ctx.db, change)),
  };

  /** Saves a change only when every symbol's rate is within its type's range; audited with the preview it was shown. */
  private async apply(tx: DbOrTx, who: AuthStaff, change: FeeChange): Promise<Applied<FeePreview>> {
    const preview = await this.preview(tx, change);
    if (preview.rows.some((r) => !r.in_range)) throw invalid('admin.fee_rate_range', { max: preview.max_rate });
    for (const r of change.rates) await updateSymbol(tx, r.id, { feeRate: r.fee_rate });
    await writeSetting(tx, 'trade_fee_type', String(change.trade_fee_type));
    const changed = preview.rows.filter(
      (r) => r.fee_rate !== r.fee_rate_before || preview.trade_fee_type !== preview.trade_fee_type_before,
    );
    const side = (when: 'before' | 'after') =>
      Object.fromEntries(
        changed.map((r) => [
          r.code,
          { fee_rate: when === 'before' ? r.fee_rate_before : r.fee_rate, one_lot_fee: when === 'before' ? r.fee_before : r.fee_after },
        ]),
      );
    await this.ctx.services.staff.audit(
      tx,
      who,
      'fees.save',
      { type: 'settings', id: 'trade_fee_type' },
      { trade_fee_type: preview.trade_fee_type_before, symbols: side('before') },
      { trade_fee_type: preview.trade_fee_type, symbols: side('after') },
    );
    // The fields the change sets (the type and each rate it names), as they were and as they become.
    const named = new Set(change.rates.map((r) => r.id));
    const rates = (when: 'before' | 'after') =>
      Object.fromEntries(
        preview.rows.filter((r) => named.has(r.id)).map((r) => [r.code, when === 'before' ? r.fee_rate_before : r.fee_rate]),
      );
    return {
      result: {
        ...preview,
        trade_fee_type_before: preview.trade_fee_type,
        rows: preview.rows.map((r) => ({ ...r, fee_rate_before: r.fee_rate, fee_before: r.fee_after })),
      },
      target: 'trade_fee_type',
      label: 'trade_fee_type',
      before: { trade_fee_type: preview.trade_fee_type_before, fee_rate: rates('before') },
      after: { trade_fee_type: preview.trade_fee_type, fee_rate: rates('after') },
    };
  }

  /** The fee of a 1-lot trade at the current mid, '' before the symbol's first quote when the fee depends on the margin. */
  oneLotFee(s: SymbolRow, type: number, rate: string, leverage: number): string {
    const terms = { contractSize: s.contractSize, marginMode: s.marginMode, fixedMargin: s.fixedMargin, feeRate: rate };
    if (type === TradeFeeType.PER_LOT) return money(feeOf(terms, type, 1, 0)).toString();
    const quote = this.ctx.services.market.quote(s.id);
    if (!quote && s.marginMode !== 2) return '';
    const margin = marginOf(terms, 1, quote?.mid ?? 0, leverage, this.ctx.services.market.quoteToUsd(s.id));
    return money(feeOf(terms, type, 1, margin)).toString();
  }
}
