import type { FeedHealthRow, FixFeed } from '@tp/contract/schemas/admin';
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

type FixRoute = FixFeed['symbols'][number];
type FixSession = FixFeed['sessions'][number];

/**
 * Each symbol's price feed (risk): state, last tick age and suspect ticks held by the deviation filter,
 * refreshed every few seconds. With PRICE_SOURCE=fix, also the provider feeding each symbol and each FIX session's state.
 */
export function FeedHealth() {
  const { t } = useTranslation();
  const feeds = useStaffQuery(api.feedHealth, undefined, { refetchInterval: REFRESH_MS });
  const fix = useStaffQuery(api.fixFeed, undefined, { refetchInterval: REFRESH_MS });
  const fixFeed = fix.data?.mode ? fix.data : null;
  const routes = new Map((fixFeed?.symbols ?? []).map((r) => [r.code, r]));
  const provider = (r: FixRoute | undefined) =>
    !r
      ? '—'
      : r.bid === null || r.ask === null
        ? t('admin.fix.no_provider')
        : r.bid === r.ask
          ? r.bid
          : t('admin.fix.bid_ask', { bid: r.bid, ask: r.ask });
  const seconds = (ms: number | null) => (ms === null ? '—' : t('admin.seconds_ago', { seconds: (ms / 1000).toFixed(1) }));
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h2 className="mb-2 font-medium">{t('admin.feed_health')}</h2>
        <DataTable
          {...tableState(feeds)}
          label={t('admin.feed_health')}
          rowKey={(r) => r.symbolId}
          columns={[
            { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
            {
              key: 'state',
              label: t('admin.f.feed_state'),
              render: (r) => <span className={STATE_TONE[r.state]}>{t(`admin.feed_state.${r.state}`)}</span>,
            },
            { key: 'age', label: t('admin.f.last_tick'), render: (r) => seconds(r.lastTickAgeMs) },
            { key: 'suspect', label: t('admin.f.suspect_ticks'), className: 'text-end tabular-nums', render: (r) => r.suspectTicks },
            ...(fixFeed
              ? [{ key: 'provider', label: t('admin.fix.provider'), render: (r: FeedHealthRow) => provider(routes.get(r.code)) }]
              : []),
          ]}
        />
      </div>
      {fixFeed && (
        <div>
          <h2 className="mb-1 font-medium">{t('admin.fix.sessions')}</h2>
          <p className="mb-2 text-sm text-muted">{fixFeed.mode === 'best' ? t('admin.fix.mode_best') : t('admin.fix.mode_failover')}</p>
          <DataTable
            rows={fixFeed.sessions}
            loading={false}
            error={false}
            onRetry={() => void fix.refetch()}
            label={t('admin.fix.sessions')}
            rowKey={(s) => s.name}
            columns={[
              {
                key: 'name',
                label: t('admin.fix.session'),
                render: (s: FixSession) => (s.primary ? t('admin.fix.primary', { name: s.name }) : s.name),
              },
              {
                key: 'state',
                label: t('admin.fix.state'),
                render: (s: FixSession) =>
                  s.loggedOn ? (
                    <span className="text-up">{t('admin.fix.logged_on')}</span>
                  ) : (
                    <span className="font-medium text-down">{t('admin.fix.logged_off')}</span>
                  ),
              },
              {
                key: 'last',
                label: t('admin.fix.last_message'),
                render: (s: FixSession) => seconds(s.lastMessageAt === null ? null : Math.max(0, Date.now() - s.lastMessageAt)),
              },
              {
                key: 'seq',
                label: t('admin.fix.seq'),
                className: 'tabular-nums',
                render: (s: FixSession) => `${s.inSeqNum} / ${s.outSeqNum}`,
              },
              { key: 'gaps', label: t('admin.fix.gaps'), className: 'text-end tabular-nums', render: (s: FixSession) => s.gaps },
              {
                key: 'reconnects',
                label: t('admin.fix.reconnects'),
                className: 'text-end tabular-nums',
                render: (s: FixSession) => s.reconnects,
              },
            ]}
          />
        </div>
      )}
    </div>
  );
}
