import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent, isolateLtr } from '../../../lib/format';
import type { TradeSymbol } from '../../../api/get-trade-list';
import type { SymbolQuote } from './use-trade-data';
import { AlertButton } from './alert-button';

const tone = (change: string) => (Number(change) > 0 ? 'text-up' : Number(change) < 0 ? 'text-down' : 'text-text');

/** Live price and change, the closed label, and the six figures of the trade view. */
export function QuoteHeader({ symbol, quote, onPick }: { symbol: TradeSymbol; quote: SymbolQuote; onPick?: () => void }) {
  const { t } = useTranslation();
  const p = symbol.PricePrecision;
  // Signed and isolated left-to-right, so the minus stays in front of the digits in Arabic.
  const change = isolateLtr(formatPercent(quote.change, { signed: true }));
  const stats: [string, string, string?][] = [
    [t('trade.last_price'), formatNumber(quote.last, p), 'stat-last'],
    [t('trade.change_24h'), change, 'stat-change'],
    [t('trade.high'), formatNumber(quote.high, p)],
    [t('trade.low'), formatNumber(quote.low, p)],
    [t('trade.open'), formatNumber(quote.open, p)],
    [t('trade.volume'), formatNumber(quote.volume, 0)],
  ];
  return (
    <div className="flex flex-col gap-2 px-4 py-3">
      <div className="flex items-center gap-2">
        {onPick ? (
          <button
            type="button"
            onClick={onPick}
            // The name starts with the visible symbol (WCAG 2.5.3), then says what the button does.
            aria-label={`${symbol.ShowCode}, ${t('trade.choose_symbol')}`}
            aria-haspopup="dialog"
            className="flex items-center gap-1 rounded-lg py-1 pe-2 text-lg font-semibold hover:bg-surface-2"
          >
            <span dir="ltr">{symbol.ShowCode}</span>
            <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden="true" className="size-4">
              <path d="m6 9 6 6 6-6" />
            </svg>
          </button>
        ) : (
          <h2 className="text-lg font-semibold" dir="ltr">
            {symbol.ShowCode}
          </h2>
        )}
        {quote.stale && (
          <span className="rounded bg-down/10 px-2 py-0.5 text-xs text-down" data-testid="prices-stale">
            {t('trade.stale')}
          </span>
        )}
        {!quote.open_market && !quote.stale && (
          <span className="rounded bg-surface-2 px-2 py-0.5 text-xs text-muted" data-testid="market-closed">
            {t('trade.closed')}
          </span>
        )}
        <AlertButton symbol={symbol} quote={quote} centred={!onPick} />
      </div>
      <div className={`flex items-end gap-4 ${quote.stale ? 'opacity-50 grayscale' : ''}`} data-stale={quote.stale ?? undefined}>
        <div className="flex flex-col">
          <span className={`text-2xl font-semibold tabular-nums ${tone(quote.change)}`} data-testid="live-price">
            {formatNumber(quote.last, p)}
          </span>
          <span className={`text-sm tabular-nums ${tone(quote.change)}`} dir="ltr" data-testid="quote-change">
            {change}
          </span>
        </div>
        <dl className="grid flex-1 grid-cols-3 gap-x-3 gap-y-1 text-[11px]">
          {stats.map(([label, value, id]) => (
            <div key={label} className="flex min-w-0 flex-col">
              {/* Labels wrap instead of being cut ("التغير خلال 24 ساعة" is wider than its column on a phone). */}
              <dt className="leading-tight text-muted [overflow-wrap:anywhere]">{label}</dt>
              <dd className="truncate tabular-nums" data-testid={id}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
