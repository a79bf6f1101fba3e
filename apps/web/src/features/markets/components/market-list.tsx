import { MarketStatus } from '@tp/contract/constants';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FavouriteStar } from '../../../components/ui/favourite-star';
import { formatPercent, formatPrice } from '../../../lib/format';
import { useRowQuote } from '../../../lib/live-quotes';
import { usePriceFlash } from '../../../lib/use-price-flash';
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
  return formatPercent(change ?? 0, { signed: true });
}

export interface RowProps {
  symbol: TradeSymbol;
  starred: boolean;
  onStar: (symbolId: number) => void;
}

/**
 * One phone row: star, logo, name and change, small chart, bid and ask (each flashing on a tick).
 * It re-renders on its own symbol's ticks only, and only while on screen; the browser skips the
 * layout and paint of rows far off screen (content-visibility).
 */
export const MarketRow = memo(function MarketRow({ symbol, starred, onStar }: RowProps) {
  const { t } = useTranslation();
  const [rowRef, live] = useRowQuote<HTMLLIElement>(symbol.Code);
  const quote = symbol.ForexQuotations;
  const bid = live?.bid || quote.Bid;
  const ask = live?.ask || quote.Ask;
  const change = live?.change || quote.Change;
  // A symbol staff made not tradable shows as closed, like a closed market.
  const status = symbol.Tradable === 0 ? MarketStatus.CLOSED : (live?.marketStatus ?? symbol.MarketStatus);
  const bidRef = usePriceFlash<HTMLSpanElement>(bid);
  const askRef = usePriceFlash<HTMLSpanElement>(ask);
  const detailsId = useId();
  // The name is the visible symbol (WCAG 2.5.3); the status, change and ticking prices are its
  // description, read when the row is focused and never announced on a tick.
  return (
    <li ref={rowRef} className="flex items-center pe-2 [contain-intrinsic-size:auto_3.0625rem] [content-visibility:auto]">
      <Link
        to={`/trade?symbol=${encodeURIComponent(symbol.Code)}`}
        aria-describedby={`${detailsId} ${detailsId}p`}
        data-code={symbol.Code}
        className="flex min-w-0 flex-1 items-center gap-2 py-2.5 ps-4 pe-1 transition-colors hover:bg-surface"
      >
        {symbol.Logo ? (
          <img
            src={symbol.Logo}
            alt=""
            width={28}
            height={28}
            loading="lazy"
            decoding="async"
            className="size-7 shrink-0 rounded-full bg-surface-2"
          />
        ) : (
          <span className="size-7 shrink-0 rounded-full bg-surface-2" />
        )}
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="truncate text-sm font-medium" dir="ltr">
            {symbol.ShowCode}
          </span>
          <span id={detailsId} aria-hidden="true" className="contents">
            {status !== MarketStatus.OPEN ? (
              <span className="text-xs text-muted">{t('home.closed')}</span>
            ) : (
              <span className={`text-xs tabular-nums ${changeClass(change)}`} data-testid="change" dir="ltr">
                {formatChange(change)}
              </span>
            )}
          </span>
        </span>
        <Sparkline forexId={symbol.Id} up={Number(change ?? 0) >= 0} />
        <span
          id={`${detailsId}p`}
          aria-hidden="true"
          className="grid w-[9.5rem] shrink-0 grid-cols-2 gap-1 text-end font-mono text-xs tabular-nums"
        >
          <span ref={bidRef} className="rounded px-0.5 text-down" data-testid="bid" title={t('home.bid')}>
            {formatPrice(bid, symbol.PricePrecision)}
          </span>
          <span ref={askRef} className="rounded px-0.5 text-up" data-testid="ask" title={t('home.ask')}>
            {formatPrice(ask, symbol.PricePrecision)}
          </span>
        </span>
      </Link>
      <FavouriteStar symbolId={symbol.Id} label={symbol.ShowCode} starred={starred} onToggle={onStar} />
    </li>
  );
});

/** Symbol rows on a phone: logo, name, 24h change, small chart, bid and ask; a row opens the trade screen. */
export function MarketList({
  symbols,
  favourites,
  onStar,
}: {
  symbols: TradeSymbol[];
  favourites: ReadonlySet<number>;
  onStar: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="flex justify-end gap-1 px-4 pt-1 pe-10 text-[11px] text-muted" aria-hidden="true">
        <span className="w-[4.25rem] text-end">{t('home.bid')}</span>
        <span className="w-[4.25rem] text-end">{t('home.ask')}</span>
      </div>
      <ul className="divide-y divide-border">
        {symbols.map((symbol) => (
          <MarketRow key={symbol.Code} symbol={symbol} starred={favourites.has(symbol.Id)} onStar={onStar} />
        ))}
      </ul>
    </>
  );
}
