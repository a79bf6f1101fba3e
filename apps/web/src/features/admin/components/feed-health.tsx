import type { FeedHealthRow } from '@tp/contract/schemas/admin';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { useStaffQuery } from '../api/admin-client';
import { DataTable, tableState } from './data-table';

const REFRESH_MS = 3_000;
const STATE_TONE: Record<FeedHealthRow['state'], string> = {
  live: 'text-up',
  stale: 'text-down font-medium',
  no_tick: 'text-accent',
  closed: 'text-muted',
};

/** Each symbol's price feed (risk): state, last tick age and suspect ticks held by the deviation filter, refreshed every few seconds. */
export function FeedHealth() {
  const { t } = useTranslation();
  const feeds = useStaffQuery(api.feedHealth, undefined, { refetchInterval: REFRESH_MS });
  return (
    <div>
      <h2 className="mb-2 font-medium">{t('admin.feed_health')}</h2>
      <DataTable
        {...tableState(feeds)}
        label={t('admin.feed_health')}
        rowKey={(r) => r.symbolId}
        columns={[
          { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
          { key: 'state', label: t('admin.f.feed_state'), render: (r) => <span className={STATE_TONE[r.state]}>{t(`admin.feed_state.${r.state}`)}</span> },
          {
            key: 'age',
            label: t('admin.f.last_tick'),
            render: (r) => (r.lastTickAgeMs === null ? '—' : t('admin.seconds_ago', { seconds: (r.lastTickAgeMs / 1000).toFixed(1) })),
          },
          { key: 'suspect', label: t('admin.f.suspect_ticks'), className: 'text-end tabular-nums', render: (r) => r.suspectTicks },
        ]}
      />
    </div>
  );
}
