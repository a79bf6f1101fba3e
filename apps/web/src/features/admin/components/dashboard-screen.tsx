import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatMoney, formatNumber } from '../../../lib/format';
import { useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable } from './data-table';
import { Stat } from './stat';

export function DashboardScreen() {
  const { t } = useTranslation();
  const q = useStaffQuery(api.dashboard, undefined);
  const d = q.data;
  return (
    <section>
      <ScreenTitle>{t('admin.nav.dashboard')}</ScreenTitle>
      {q.isLoading ? (
        <SkeletonRows rows={4} />
      ) : q.isError || !d ? (
        <ErrorState onRetry={() => q.refetch()} />
      ) : (
        <div className="flex flex-col gap-6">
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <Stat label={t('admin.dash.real_users')} value={formatNumber(d.users.real, 0)} />
            <Stat label={t('admin.dash.demo_users')} value={formatNumber(d.users.demo, 0)} />
            <Stat label={t('admin.dash.verified_users')} value={formatNumber(d.users.verified, 0)} />
            <Stat label={t('admin.dash.open_positions')} value={formatNumber(d.open_positions, 0)} />
            <Stat label={t('admin.dash.deposits_waiting')} value={formatNumber(d.deposits_waiting, 0)} />
            <Stat label={t('admin.dash.withdrawals_waiting')} value={formatNumber(d.withdrawals_waiting, 0)} />
            <Stat label={t('admin.dash.house_profit')} value={formatMoney(d.house_profit_today)} />
            <Stat label={t('admin.dash.fees')} value={formatMoney(d.fees_today)} />
            <Stat label={t('admin.dash.margin_calls')} value={formatNumber(d.margin_calls_today, 0)} />
            <Stat label={t('admin.dash.stop_outs')} value={formatNumber(d.stop_outs_today, 0)} />
          </dl>
          <div>
            <h2 className="mb-2 font-medium">{t('admin.dash.exposure')}</h2>
            <DataTable
              label={t('admin.dash.exposure')}
              rows={d.exposure}
              rowKey={(r) => r.symbol_id}
              loading={false}
              error={false}
              onRetry={() => q.refetch()}
              columns={[
                { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
                { key: 'positions', label: t('admin.dash.positions'), render: (r) => r.positions },
                { key: 'buy', label: t('admin.dash.buy_lots'), render: (r) => formatNumber(r.buy_lots, 2) },
                { key: 'sell', label: t('admin.dash.sell_lots'), render: (r) => formatNumber(r.sell_lots, 2) },
                { key: 'net', label: t('admin.dash.net_lots'), render: (r) => formatNumber(r.net_lots, 2) },
                { key: 'notional', label: t('admin.dash.notional'), render: (r) => formatMoney(r.notional) },
              ]}
            />
          </div>
        </div>
      )}
    </section>
  );
}
