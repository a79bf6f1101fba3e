import { useTranslation } from 'react-i18next';
import { formatMoney, formatPercent, formatProfit } from '../../../lib/format';
import { useForexDetail } from '../../../api/get-forex-detail';
import { mt5Figures } from './account-figures';
import type { LiveFigures } from './use-live-orders';

/**
 * The account the MT5 way: balance (does not move when a position opens), equity, margin, free margin,
 * margin level and floating profit; live from FOREX_TRADE. `bar`: one row above the terminal's positions.
 */
export function AccountSummary({ live, bar = false }: { live: LiveFigures | null; bar?: boolean }) {
  const { t } = useTranslation();
  const detail = useForexDetail();
  const f = mt5Figures(live, detail.data);
  const items: [string, string, string][] = [
    [t('orders.balance'), formatMoney(f.balance), 'balance'],
    [t('orders.equity'), formatMoney(f.equity), 'net-value'],
    [t('orders.used_margin'), formatMoney(f.margin), 'margin'],
    [t('orders.free_margin'), formatMoney(f.freeMargin), 'available-prepayment'],
    [t('orders.margin_level'), f.marginLevel ? formatPercent(f.marginLevel) : '--', 'risk-rate'],
    // The spec's order screen shows profit to its 6 decimals; the terminal's MT5-style bar shows money, to 2.
    [t('orders.floating_profit'), bar ? formatMoney(f.floatingProfit) : formatProfit(f.floatingProfit), 'floating-profit'],
  ];
  return (
    <section aria-label={t('orders.account_bar')} className={`border-b border-border ${bar ? 'px-3 py-2' : 'px-4 py-3'}`}>
      <dl className={bar ? 'flex flex-wrap gap-x-6 gap-y-1' : 'grid grid-cols-3 gap-x-3 gap-y-2'}>
        {items.map(([label, value, id]) => (
          <div key={id} className={bar ? 'flex items-baseline gap-1.5' : 'flex min-w-0 flex-col'}>
            <dt className="truncate text-[11px] text-muted">{label}</dt>
            <dd
              className={`truncate text-sm tabular-nums ${id === 'floating-profit' ? (Number(f.floatingProfit) >= 0 ? 'text-up' : 'text-down') : ''}`}
              data-testid={id}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {detail.data?.margin_call === 1 && (
        <p role="alert" className="mt-2 rounded bg-down/10 px-2 py-1 text-xs text-down">
          {t('orders.margin_call')}
        </p>
      )}
    </section>
  );
}
