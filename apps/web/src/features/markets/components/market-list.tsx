import { MarketStatus } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../lib/format';
import type { TradeSymbol } from '../api/get-trade-list';

function changeClass(change: number): string {
  if (change > 0) return 'text-up';
  if (change < 0) return 'text-down';
  return 'text-muted';
}

/** Symbol rows: name, last price and 24h change; a row opens the trade screen. */
export function MarketList({ symbols }: { symbols: TradeSymbol[] }) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-border">
      {symbols.map((symbol) => {
        const quote = symbol.ForexQuotations;
        const change = Number(quote?.Change ?? 0);
        const closed = symbol.MarketStatus !== MarketStatus.OPEN;
        return (
          <li key={symbol.Id}>
            <Link
              to={`/trade?symbol=${encodeURIComponent(symbol.Code)}`}
              className="flex items-center gap-3 px-4 py-3.5 hover:bg-surface"
            >
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate font-medium">{symbol.ShowCode}</span>
                {closed && <span className="text-xs text-muted">{t('home.closed')}</span>}
              </span>
              <span className="text-end font-mono tabular-nums" aria-label={t('home.last_price')}>
                {formatNumber(quote?.Close ?? symbol.LastPrice, symbol.PricePrecision)}
              </span>
              <span
                className={`w-20 text-end text-sm tabular-nums ${changeClass(change)}`}
                aria-label={t('home.change')}
                dir="ltr"
              >
                {change > 0 ? '+' : ''}
                {formatNumber(change, 2)}%
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
