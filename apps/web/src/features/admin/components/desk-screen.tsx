import * as api from '@tp/contract/endpoints/admin';
import type { DeskExposure } from '@tp/contract/schemas/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatMoney, formatNumber } from '../../../lib/format';
import { useStaffQuery } from '../api/admin-client';
import { useStaffTopic } from '../api/staff-socket';
import { DataTable } from './data-table';
import { ScreenTabs, ScreenTitle } from './screen-header';
import { Stat } from './stat';

const ACCOUNT_TABS = ['real', 'demo'] as const;
type AccountTab = (typeof ACCOUNT_TABS)[number];

/**
 * The dealer's desk: the house's book (the counterparty of every client position) per symbol and in
 * total, fetched once, then kept current by the DESK pushes (about twice a second).
 */
export function DeskScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AccountTab>('real');
  const [live, setLive] = useState<Record<AccountTab, DeskExposure> | null>(null);
  const q = useStaffQuery(api.deskExposure, { demo: tab === 'demo' ? 1 : 0 });
  useStaffTopic('DESK', (m) => setLive({ real: m.real, demo: m.demo }));
  // The newer of the fetched figures and the last push.
  const pushed = live?.[tab];
  const desk = pushed && (!q.data || pushed.time >= q.data.time) ? pushed : q.data;
  return (
    <section>
      <ScreenTitle>{t('admin.nav.desk')}</ScreenTitle>
      <p className="mb-4 text-sm text-muted">{t('admin.desk.intro')}</p>
      <ScreenTabs tabs={ACCOUNT_TABS} value={tab} onChange={setTab} label={t('admin.desk.accounts')} />
      {!desk && q.isLoading ? (
        <SkeletonRows rows={4} />
      ) : !desk ? (
        <ErrorState onRetry={() => q.refetch()} />
      ) : (
        <DeskFigures desk={desk} onRetry={() => q.refetch()} />
      )}
    </section>
  );
}

function DeskFigures({ desk, onRetry }: { desk: DeskExposure; onRetry: () => void }) {
  const { t } = useTranslation();
  const { totals } = desk;
  return (
    <div className="flex flex-col gap-6">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" aria-label={t('admin.desk.totals')}>
        <Stat label={t('admin.desk.positions')} value={formatNumber(totals.positions, 0)} />
        <Stat label={t('admin.desk.long_usd')} value={formatMoney(totals.long_usd)} />
        <Stat label={t('admin.desk.short_usd')} value={formatMoney(totals.short_usd)} />
        <Stat label={t('admin.desk.net_usd')} value={formatMoney(totals.net_usd)} />
        <Stat label={t('admin.desk.house_floating')} value={formatMoney(totals.house_floating)} />
        <Stat label={t('admin.desk.house_realised')} value={formatMoney(desk.house_realised_today)} />
      </dl>
      <div>
        <h2 className="mb-2 font-medium">{t('admin.desk.by_symbol')}</h2>
        {desk.symbols.length === 0 ? (
          <EmptyState message={t('admin.desk.empty')} />
        ) : (
          <DataTable
            label={t('admin.desk.by_symbol')}
            rows={desk.symbols}
            rowKey={(r) => r.symbol_id}
            loading={false}
            error={false}
            onRetry={onRetry}
            columns={[
              { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
              { key: 'positions', label: t('admin.desk.positions'), render: (r) => formatNumber(r.positions, 0) },
              { key: 'long_lots', label: t('admin.desk.long_lots'), render: (r) => formatNumber(r.long_lots, 2) },
              { key: 'short_lots', label: t('admin.desk.short_lots'), render: (r) => formatNumber(r.short_lots, 2) },
              { key: 'net_lots', label: t('admin.desk.net_lots'), render: (r) => formatNumber(r.net_lots, 2) },
              { key: 'long_usd', label: t('admin.desk.long_usd'), render: (r) => formatMoney(r.long_usd) },
              { key: 'short_usd', label: t('admin.desk.short_usd'), render: (r) => formatMoney(r.short_usd) },
              { key: 'net_usd', label: t('admin.desk.net_usd'), render: (r) => formatMoney(r.net_usd) },
              { key: 'house_floating', label: t('admin.desk.house_floating'), render: (r) => formatMoney(r.house_floating) },
            ]}
          />
        )}
      </div>
    </div>
  );
}
