import { MarketStatus } from '@tp/contract/constants';
import { memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FavouriteStar } from '../../../components/ui/favourite-star';
import { formatNumber } from '../../../lib/format';
import { useLiveQuotesStore, useRowQuote, type LiveQuote } from '../../../lib/live-quotes';
import { usePriceFlash } from '../../../lib/use-price-flash';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { changeClass, formatChange, type RowProps } from './market-list';

type Column = 'symbol' | 'bid' | 'ask' | 'spread' | 'high' | 'low' | 'change';
const COLUMNS: Column[] = ['symbol', 'bid', 'ask', 'spread', 'high', 'low', 'change'];
type Sort = { column: Column; descending: boolean } | null;

interface BoardFigures {
  bid: string;
  ask: string;
  high: string;
  low: string;
  change: string;
  /** Ask minus bid in the symbol's smallest price step. */
  spread: number;
}

function figuresOf(symbol: TradeSymbol, live: LiveQuote | undefined): BoardFigures {
  const q = symbol.ForexQuotations;
  const bid = live?.bid || q.Bid;
  const ask = live?.ask || q.Ask;
  return {
    bid,
    ask,
    high: live?.high || q.High,
    low: live?.low || q.Low,
    change: live?.change || q.Change,
    spread: Math.round((Number(ask) - Number(bid)) * 10 ** symbol.PricePrecision),
  };
}

/**
 * One table row, opening the trade screen wherever it is clicked; it re-renders on its own symbol's
 * ticks only, and only while on screen.
 */
export const BoardRow = memo(function BoardRow({ symbol, starred, onStar, onOpen }: RowProps & { onOpen: (code: string) => void }) {
  const { t } = useTranslation();
  const [rowRef, live] = useRowQuote<HTMLTableRowElement>(symbol.Code);
  const f = figuresOf(symbol, live);
  const p = symbol.PricePrecision;
  const closed = symbol.Tradable === 0 || (live?.marketStatus ?? symbol.MarketStatus) !== MarketStatus.OPEN;
  const bidRef = usePriceFlash<HTMLTableCellElement>(f.bid);
  const askRef = usePriceFlash<HTMLTableCellElement>(f.ask);
  return (
    <tr
      ref={rowRef}
      data-code={symbol.Code}
      // The whole row opens the trade screen, as its highlight suggests; the symbol's link is the
      // row's keyboard stop (Enter) and its accessible name, and the star keeps its own click.
      onClick={(event) => {
        if ((event.target as Element).closest('a, button, input')) return;
        if (window.getSelection()?.toString()) return;
        onOpen(symbol.Code);
      }}
      className="cursor-pointer border-b border-border hover:bg-surface"
    >
      <td className="w-8 ps-2">
        <FavouriteStar symbolId={symbol.Id} label={symbol.ShowCode} starred={starred} onToggle={onStar} />
      </td>
      <th scope="row" className="py-2 pe-3 text-start font-medium">
        <a
          href={`/trade?symbol=${encodeURIComponent(symbol.Code)}`}
          onClick={(event) => {
            event.preventDefault();
            onOpen(symbol.Code);
          }}
          className="inline-flex items-center gap-2"
        >
          {symbol.Logo && (
            <img
              src={symbol.Logo}
              alt=""
              width={20}
              height={20}
              loading="lazy"
              decoding="async"
              className="size-5 rounded-full bg-surface-2"
            />
          )}
          <span dir="ltr">{symbol.ShowCode}</span>
          {closed && <span className="rounded bg-surface-2 px-1.5 text-[11px] font-normal text-muted">{t('home.closed')}</span>}
        </a>
      </th>
      <td ref={bidRef} className="px-3 text-end font-mono tabular-nums text-down" data-testid="bid">
        {formatNumber(f.bid, p)}
      </td>
      <td ref={askRef} className="px-3 text-end font-mono tabular-nums text-up" data-testid="ask">
        {formatNumber(f.ask, p)}
      </td>
      <td className="px-3 text-end tabular-nums text-muted" data-testid="spread">
        {formatNumber(f.spread, 0)}
      </td>
      <td className="px-3 text-end tabular-nums">{formatNumber(f.high, p)}</td>
      <td className="px-3 text-end tabular-nums">{formatNumber(f.low, p)}</td>
      <td className={`px-3 pe-4 text-end tabular-nums ${changeClass(f.change)}`} dir="ltr" data-testid="change">
        {formatChange(f.change)}
      </td>
    </tr>
  );
});

function sortValue(symbol: TradeSymbol, live: LiveQuote | undefined, column: Column): number | string {
  if (column === 'symbol') return symbol.ShowCode;
  const f = figuresOf(symbol, live);
  return column === 'spread' ? f.spread : Number(f[column]);
}

/**
 * The desktop quote board: a table of bid, ask, spread in points, day high and low and change,
 * sortable by any column. Rows are memoized by symbol and read their own live quote, so a tick
 * re-renders only the rows that moved (the order is recomputed only while sorting by a live column).
 */
export function QuoteBoard({
  symbols,
  favourites,
  onStar,
}: {
  symbols: TradeSymbol[];
  favourites: ReadonlySet<number>;
  onStar: (id: number) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sort, setSort] = useState<Sort>(null);
  const live = sort !== null && sort.column !== 'symbol';
  const quotes = useLiveQuotesStore((state) => (live ? state.quotes : null));
  const rows = useMemo(() => {
    if (!sort) return symbols;
    const sign = sort.descending ? -1 : 1;
    return [...symbols].sort((a, b) => {
      const x = sortValue(a, quotes?.[a.Code], sort.column);
      const y = sortValue(b, quotes?.[b.Code], sort.column);
      if (typeof x === 'string' || typeof y === 'string') return sign * String(x).localeCompare(String(y));
      return sign * (x - y);
    });
  }, [symbols, sort, quotes]);
  const onOpen = useMemo(() => (code: string) => navigate(`/trade?symbol=${encodeURIComponent(code)}`), [navigate]);

  const header = (column: Column) => {
    const active = sort?.column === column;
    const ariaSort = active ? (sort.descending ? 'descending' : 'ascending') : 'none';
    return (
      <th
        key={column}
        scope="col"
        aria-sort={ariaSort}
        className={`px-3 py-2 font-normal ${column === 'symbol' ? 'text-start' : 'text-end'}`}
      >
        <button
          type="button"
          onClick={() => setSort(active ? (sort.descending ? null : { column, descending: true }) : { column, descending: false })}
          className={`inline-flex items-center gap-1 hover:text-text ${active ? 'text-text' : ''}`}
        >
          {t(`home.column_${column}`)}
          <span aria-hidden="true" className="w-2">
            {active ? (sort.descending ? '▼' : '▲') : ''}
          </span>
        </button>
      </th>
    );
  };

  return (
    <table className="w-full text-sm" data-testid="quote-board">
      <caption className="sr-only">{t('home.market_list')}</caption>
      <thead className="sticky top-0 z-10 bg-bg text-xs text-muted">
        <tr className="border-b border-border">
          <th scope="col" className="w-8">
            <span className="sr-only">{t('common.favourites')}</span>
          </th>
          {COLUMNS.map(header)}
        </tr>
      </thead>
      <tbody>
        {rows.map((symbol) => (
          <BoardRow key={symbol.Code} symbol={symbol} starred={favourites.has(symbol.Id)} onStar={onStar} onOpen={onOpen} />
        ))}
      </tbody>
    </table>
  );
}
