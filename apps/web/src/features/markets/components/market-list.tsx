import { MarketStatus } from '@tp/contract/constants';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../lib/format';
import { useLiveQuote } from '../../../lib/live-quotes';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { Sparkline } from './sparkline';

export function changeClass(change: string | number | undefined): string {
  const value = Number(change ?? 0);
  if (value > 0) return 'text-up';
  if (value < 0) return 'text-down';
  return 'text-muted';
}

/** `+1.23%` with the sign, at 2 decimals in the current locale. */
export function formatChange(change: string | number | undefined): string {
  const text = formatNumber(change ?? 0, 2);
  return `${Number(change ?? 0) > 0 ? '+' : ''}${text}%`;
}

/** Flashes the price green or red when it moves, without re-rendering the row (Web Animations). */
function useFlash(price: string | undefined) {
  const ref = useRef<HTMLSpanElement>(null);
  const previous = useRef(price);
  useEffect(() => {
    const before = previous.current;
    previous.current = price;
    const node = ref.current;
    if (!node || !before || !price || before === price || typeof node.animate !== 'function') return;
    const colour = Number(price) > Number(before) ? 'var(--color-up)' : 'var(--color-down)';
    node.dataset.flash = Number(price) > Number(before) ? 'up' : 'down';
    node.animate([{ backgroundColor: `color-mix(in srgb, ${colour} 25%, transparent)` }, { backgroundColor: 'transparent' }], { duration: 600, easing: 'ease-out' });
  }, [price]);
  return ref;
}

const MarketRow = memo(function MarketRow({ symbol }: { symbol: TradeSymbol }) {
  const { t } = useTranslation();
  const live = useLiveQuote(symbol.Code);
  const quote = symbol.ForexQuotations;
  const price = live?.close || quote?.Close || symbol.LastPrice;
  const change = live?.change || quote?.Change;
  const status = live?.marketStatus ?? symbol.MarketStatus;
  const flashRef = useFlash(price);
  return (
    <li>
      <Link
        to={`/trade?symbol=${encodeURIComponent(symbol.Code)}`}
        aria-label={symbol.ShowCode}
        data-code={symbol.Code}
        className="flex items-center gap-3 px-4 py-2.5 transition-colors hover:bg-surface"
      >
        {symbol.Logo ? (
          <img src={symbol.Logo} alt="" width={32} height={32} loading="lazy" decoding="async" className="size-8 shrink-0 rounded-full bg-surface-2" />
        ) : (
          <span className="size-8 shrink-0 rounded-full bg-surface-2" />
        )}
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="truncate font-medium" dir="ltr">
            {symbol.ShowCode}
          </span>
          {status !== MarketStatus.OPEN && <span className="text-xs text-muted">{t('home.closed')}</span>}
        </span>
        <Sparkline forexId={symbol.Id} up={Number(change ?? 0) >= 0} />
        <span className="flex w-24 shrink-0 flex-col items-end">
          <span ref={flashRef} className="rounded px-1 font-mono text-sm tabular-nums" data-testid="last-price">
            {formatNumber(price, symbol.PricePrecision)}
          </span>
          <span className={`px-1 text-xs tabular-nums ${changeClass(change)}`} data-testid="change" dir="ltr">
            {formatChange(change)}
          </span>
        </span>
      </Link>
    </li>
  );
});

/** Symbol rows: logo, name, small chart, last price and 24h change; a row opens the trade screen. */
export function MarketList({ symbols }: { symbols: TradeSymbol[] }) {
  return (
    <ul className="divide-y divide-border">
      {symbols.map((symbol) => (
        <MarketRow key={symbol.Id} symbol={symbol} />
      ))}
    </ul>
  );
}
