import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber, formatProfit } from '../../../lib/format';
import { useForexDetail } from '../../../api/get-forex-detail';
import type { LiveFigures } from './use-live-orders';

/** Net value, risk rate, available prepayment, balance and floating profit; live from FOREX_TRADE. */
export function AccountSummary({ live }: { live: LiveFigures | null }) {
  const { t } = useTranslation();
  const detail = useForexDetail();
  const d = detail.data;
  const equity = live?.equity ?? d?.equity;
  const riskRate = live ? (Number(live.riskRate) > 0 ? live.riskRate : null) : d?.risk_rate;
  const available = live?.availablePrepayment ?? d?.available_prepayment;
  const balance = live?.balance ?? d?.balance;
  const floating = live?.floatingProfit ?? d?.float_profit;
  const items: [string, string, string][] = [
    [t('orders.net_value'), formatMoney(equity), 'net-value'],
    [t('orders.risk_rate'), riskRate ? `${formatNumber(riskRate, 2)}%` : '--', 'risk-rate'],
    [t('orders.available_prepayment'), formatMoney(available), 'available-prepayment'],
    [t('orders.balance'), formatMoney(balance), 'balance'],
    [t('orders.floating_profit'), formatProfit(floating), 'floating-profit'],
  ];
  return (
    <section aria-label={t('orders.account')} className="border-b border-border px-4 py-3">
      <dl className="grid grid-cols-3 gap-x-3 gap-y-2">
        {items.map(([label, value, id]) => (
          <div key={id} className="flex min-w-0 flex-col">
            <dt className="truncate text-[11px] text-muted">{label}</dt>
            <dd
              className={`truncate text-sm tabular-nums ${id === 'floating-profit' ? (Number(floating) >= 0 ? 'text-up' : 'text-down') : ''}`}
              data-testid={id}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {d?.margin_call === 1 && (
        <p role="alert" className="mt-2 rounded bg-down/10 px-2 py-1 text-xs text-down">
          {t('orders.margin_call')}
        </p>
      )}
    </section>
  );
}
