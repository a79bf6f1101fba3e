import { MarketStatus } from '@tp/contract/constants';
import { memo, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '../../../components/ui/icons';
import { formatNumber } from '../../../lib/format';
import { useRowQuote } from '../../../lib/live-quotes';
import { useCategories } from '../../../api/get-categories';
import { useFavourites } from '../../../api/favourites';
import { FavouriteStar } from '../../../components/ui/favourite-star';
import { usePriceFlash } from '../../../lib/use-price-flash';
import type { TradeSymbol } from '../../../api/get-trade-list';

/** One symbol; it re-renders on its own symbol's ticks only, and only while on screen. */
export const SymbolRow = memo(function SymbolRow({
  symbol,
  selected,
  onSelect,
  starred,
  onStar,
}: {
  symbol: TradeSymbol;
  selected: boolean;
  onSelect: (code: string) => void;
  starred: boolean;
  onStar: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [rowRef, live] = useRowQuote<HTMLLIElement>(symbol.Code);
  const price = live?.close || symbol.ForexQuotations.Close;
  const change = Number(live?.change || symbol.ForexQuotations.Change);
  const closed = symbol.Tradable === 0 || (live?.marketStatus ?? symbol.MarketStatus) !== MarketStatus.OPEN;
  const priceRef = usePriceFlash<HTMLSpanElement>(price);
  const detailsId = useId();
  // The name is the visible symbol (WCAG 2.5.3); the ticking price and change are its description,
  // read when the row is focused and never announced on a tick.
  return (
    <li ref={rowRef} className="flex items-center">
      <button
        type="button"
        aria-current={selected ? 'true' : undefined}
        aria-describedby={detailsId}
        onClick={() => onSelect(symbol.Code)}
        className={`flex min-w-0 flex-1 items-center gap-2 py-2 ps-3 pe-1 text-start text-sm hover:bg-surface-2 ${selected ? 'bg-surface-2' : ''}`}
      >
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="truncate font-medium" dir="ltr">
            {symbol.ShowCode}
          </span>
          {closed && (
            <span className="text-[11px] text-muted" aria-hidden="true">
              {t('trade.closed')}
            </span>
          )}
        </span>
        <span id={detailsId} aria-hidden="true" className="contents">
          <span ref={priceRef} className="rounded px-0.5 tabular-nums">
            {formatNumber(price, symbol.PricePrecision)}
          </span>
          <span
            className={`w-16 text-end text-xs tabular-nums ${change > 0 ? 'text-up' : change < 0 ? 'text-down' : 'text-muted'}`}
            dir="ltr"
          >
            {change > 0 ? '+' : ''}
            {formatNumber(change, 2)}%
          </span>
          {closed && <span className="sr-only">{t('trade.closed')}</span>}
        </span>
      </button>
      <FavouriteStar symbolId={symbol.Id} label={symbol.ShowCode} starred={starred} onToggle={onStar} className="me-1" />
    </li>
  );
});

/** Symbols by category with a search box: the picker drawer's content and the terminal's market list. */
export function SymbolList({
  symbols,
  selected,
  onSelect,
}: {
  symbols: TradeSymbol[];
  selected?: string;
  onSelect: (code: string) => void;
}) {
  const { t } = useTranslation();
  const categories = useCategories();
  const [category, setCategory] = useState<number | null | 'favourites'>(null);
  const favourites = useFavourites();
  const [search, setSearch] = useState('');
  const term = search.trim().toLowerCase();
  const shown = symbols.filter(
    (s) =>
      (category === null || (category === 'favourites' ? favourites.ids.has(s.Id) : s.CategoryId === category)) &&
      (!term || s.Code.toLowerCase().includes(term) || s.ShowCode.toLowerCase().includes(term)),
  );
  const chip = (id: number | null | 'favourites', label: string) => (
    <li key={id ?? 'all'}>
      <button
        type="button"
        aria-pressed={category === id}
        onClick={() => setCategory(id)}
        className={`whitespace-nowrap rounded-full px-2.5 py-1 text-xs ${category === id ? 'bg-accent text-on-accent' : 'bg-surface-2 text-muted'}`}
      >
        {label}
      </button>
    </li>
  );
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-col gap-2 px-3 py-2">
        <label className="flex items-center gap-2 rounded-lg bg-surface-2 px-2">
          <SearchIcon className="size-4 text-muted" />
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-label={t('trade.search_symbols')}
            placeholder={t('trade.search_symbols')}
            className="h-8 min-w-0 flex-1 bg-transparent text-sm outline-none placeholder:text-muted"
          />
        </label>
        <ul aria-label={t('trade.categories')} className="flex gap-1.5 overflow-x-auto">
          {chip('favourites', t('common.favourites'))}
          {chip(null, t('trade.all'))}
          {(categories.data ?? []).map((c) => chip(c.Id, c.NameShowTrans))}
        </ul>
      </div>
      {shown.length === 0 ? (
        <p className="px-3 py-6 text-center text-sm text-muted">{t('messages.no_data')}</p>
      ) : (
        <ul className="min-h-0 flex-1 divide-y divide-border overflow-y-auto">
          {shown.map((s) => (
            <SymbolRow
              key={s.Code}
              symbol={s}
              selected={s.Code === selected}
              onSelect={onSelect}
              starred={favourites.ids.has(s.Id)}
              onStar={favourites.toggle}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
