import { dec } from '@tp/contract/decimal';
import * as api from '@tp/contract/endpoints/admin';
import type { DeskClients, DeskExposure, DeskHedges } from '@tp/contract/schemas/admin';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { Field } from '../../../components/ui/field';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime, formatMoney, formatNumber, formatPercent } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { useStaffTopic } from '../api/staff-socket';
import { DataTable, tableState } from './data-table';
import { ScreenTabs, ScreenTitle } from './screen-header';
import { adminKey } from './dynamic-key';
import { Stat } from './stat';

const ACCOUNT_TABS = ['real', 'demo'] as const;
type AccountTab = (typeof ACCOUNT_TABS)[number];
const VIEW_TABS = ['book', 'clients', 'hedges', 'limits'] as const;
type ViewTab = (typeof VIEW_TABS)[number];
/** The clients' lists are read on demand (they scan 30 days of closed trades), refreshed this often while shown. */
const CLIENTS_REFRESH_MS = 10_000;
/** The hedge book is read again this often while shown. */
const HEDGES_REFRESH_MS = 5_000;

/**
 * The dealer's desk: the house's book (the counterparty of every client position) per symbol and in
 * total, fetched once, then kept current by the DESK pushes (about twice a second).
 */
export function DeskScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AccountTab>('real');
  const [view, setView] = useState<ViewTab>('book');
  const [live, setLive] = useState<Record<AccountTab, DeskExposure> | null>(null);
  const q = useStaffQuery(api.deskExposure, { demo: tab === 'demo' ? 1 : 0 });
  useStaffTopic('DESK', (m) => setLive({ real: m.real, demo: m.demo }));
  // The newer of the fetched figures and the last push.
  const pushed = live?.[tab];
  const desk = pushed && (!q.data || pushed.time >= q.data.time) ? pushed : q.data;
  const over = [
    ...(desk?.symbols.filter((s) => s.over_limit === 1).map((s) => s.code) ?? []),
    ...(desk?.groups.flatMap((g) => g.symbols.filter((s) => s.over_limit === 1).map((s) => `${s.code} (${g.name})`)) ?? []),
  ];
  // Hedge mismatches are alerted on every view of the desk (the Hedges view lists them).
  const hedges = useStaffQuery(api.deskHedges, undefined, { refetchInterval: HEDGES_REFRESH_MS });
  const mismatches = hedges.data?.mismatches ?? 0;
  return (
    <section>
      <ScreenTitle>{t('admin.nav.desk')}</ScreenTitle>
      <p className="mb-4 text-sm text-muted">{t('admin.desk.intro')}</p>
      <ScreenTabs tabs={ACCOUNT_TABS} value={tab} onChange={setTab} label={t('admin.desk.accounts')} />
      {over.length > 0 && (
        <p role="alert" className="mb-4 rounded-xl border border-down/40 bg-down/10 px-4 py-3 text-sm text-down">
          {t('admin.desk.over_limit_alert', { symbols: over.join(', ') })}
        </p>
      )}
      {mismatches > 0 && (
        <p role="alert" className="mb-4 rounded-xl border border-down/40 bg-down/10 px-4 py-3 text-sm text-down">
          {t('admin.desk.hedge_mismatch_alert', { count: mismatches })}
        </p>
      )}
      <ScreenTabs tabs={VIEW_TABS} value={view} onChange={setView} label={t('admin.desk.view')} />
      {view === 'clients' ? (
        <DeskClientsView isDemo={tab === 'demo'} />
      ) : view === 'hedges' ? (
        <DeskHedgesView />
      ) : view === 'limits' ? (
        <DeskLimits />
      ) : !desk && q.isLoading ? (
        <SkeletonRows rows={4} />
      ) : !desk ? (
        <ErrorState onRetry={() => q.refetch()} />
      ) : (
        <DeskFigures desk={desk} onRetry={() => q.refetch()} />
      )}
    </section>
  );
}

/** A duration in seconds with its unit in the language's plural form (1 second, 12 seconds, ١٢ ثانية). */
const formatSeconds = (seconds: number) =>
  new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(seconds);

/** Who moves the book: the largest positions and floating profits, the best 30 days, accounts near a margin call, flow quality. */
function DeskClientsView({ isDemo }: { isDemo: boolean }) {
  const { t } = useTranslation();
  const q = useStaffQuery(api.deskClients, { demo: isDemo ? 1 : 0 }, { refetchInterval: CLIENTS_REFRESH_MS });
  if (q.isLoading) return <SkeletonRows rows={6} />;
  if (!q.data) return <ErrorState onRetry={() => q.refetch()} />;
  const d: DeskClients = q.data;
  const table = { loading: false, error: false, onRetry: () => void q.refetch() };
  const client = {
    key: 'client',
    label: t('admin.desk.client'),
    render: (r: { email: string; user_id: number }) => `${r.email} · #${r.user_id}`,
  };
  return (
    <div className="flex flex-col gap-6">
      <DeskList title={t('admin.desk.largest_positions')} empty={d.largest_positions.length === 0}>
        <DataTable
          label={t('admin.desk.largest_positions')}
          rows={d.largest_positions}
          rowKey={(r) => r.order_id}
          {...table}
          columns={[
            client,
            { key: 'order', label: t('admin.f.id'), render: (r) => r.order_id },
            { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
            { key: 'side', label: t('admin.f.side'), render: (r) => t(r.type === 1 ? 'admin.buy' : 'admin.sell') },
            { key: 'lots', label: t('admin.f.lots'), render: (r) => formatNumber(r.lots, 2) },
            { key: 'usd', label: t('admin.desk.value_usd'), render: (r) => formatMoney(r.usd) },
            { key: 'floating', label: t('admin.desk.floating'), render: (r) => formatMoney(r.floating) },
          ]}
        />
      </DeskList>
      <DeskList title={t('admin.desk.top_floating')} empty={d.top_floating.length === 0}>
        <DataTable
          label={t('admin.desk.top_floating')}
          rows={d.top_floating}
          rowKey={(r) => r.user_id}
          {...table}
          columns={[
            client,
            { key: 'positions', label: t('admin.desk.positions'), render: (r) => formatNumber(r.positions, 0) },
            { key: 'floating', label: t('admin.desk.floating'), render: (r) => formatMoney(r.floating) },
            { key: 'equity', label: t('admin.desk.equity'), render: (r) => formatMoney(r.equity) },
          ]}
        />
      </DeskList>
      <DeskList title={t('admin.desk.near_margin')} empty={d.near_margin.length === 0}>
        <DataTable
          label={t('admin.desk.near_margin')}
          rows={d.near_margin}
          rowKey={(r) => r.user_id}
          {...table}
          columns={[
            client,
            { key: 'level', label: t('admin.desk.margin_level'), render: (r) => formatPercent(r.margin_level) },
            { key: 'stop_out', label: t('admin.desk.stop_out_level'), render: (r) => formatPercent(r.stop_out_level) },
            {
              key: 'call',
              label: t('admin.desk.margin_call'),
              render: (r) => (r.margin_call ? <span className="text-down">{t('admin.desk.in_call')}</span> : '—'),
            },
            { key: 'since', label: t('admin.desk.since'), render: (r) => formatDateTime(r.since) },
          ]}
        />
      </DeskList>
      <DeskList title={t('admin.desk.top_30d')} empty={d.top_30d.length === 0}>
        <DataTable
          label={t('admin.desk.top_30d')}
          rows={d.top_30d}
          rowKey={(r) => r.user_id}
          {...table}
          columns={[
            client,
            { key: 'trades', label: t('admin.desk.trades'), render: (r) => formatNumber(r.trades, 0) },
            { key: 'profit', label: t('admin.f.profit'), render: (r) => formatMoney(r.profit) },
          ]}
        />
      </DeskList>
      <DeskList
        title={t('admin.desk.flow')}
        empty={d.flow.length === 0}
        note={t('admin.desk.flow_rule', {
          seconds: d.rules.quick_seconds,
          share: formatPercent(Number(d.rules.toxic_share) * 100),
          trades: d.rules.toxic_min_trades,
        })}
      >
        <DataTable
          label={t('admin.desk.flow')}
          rows={d.flow}
          rowKey={(r) => r.user_id}
          {...table}
          columns={[
            client,
            { key: 'trades', label: t('admin.desk.trades'), render: (r) => formatNumber(r.trades, 0) },
            { key: 'hold', label: t('admin.desk.avg_hold'), render: (r) => formatSeconds(r.avg_hold_seconds) },
            { key: 'quick', label: t('admin.desk.quick_share'), render: (r) => formatPercent(Number(r.quick_win_share) * 100) },
            {
              key: 'toxic',
              label: t('admin.desk.toxic'),
              render: (r) => (r.toxic ? <span className="font-medium text-down">{t('admin.desk.toxic_yes')}</span> : '—'),
            },
          ]}
        />
      </DeskList>
    </div>
  );
}

/** Signed lots (buys positive): a plus sign on longs, so a short and a long of the same size read apart. */
const signedLots = (lots: string) => (dec(lots).gt(0) ? `+${formatNumber(lots, 2)}` : formatNumber(lots, 2));

/** The hedge book beside the A-book and hybrid clients' net exposure: per symbol, per provider, and the newest hedge orders. */
function DeskHedgesView() {
  const { t } = useTranslation();
  const q = useStaffQuery(api.deskHedges, undefined, { refetchInterval: HEDGES_REFRESH_MS });
  if (q.isLoading) return <SkeletonRows rows={6} />;
  if (!q.data) return <ErrorState onRetry={() => q.refetch()} />;
  const d: DeskHedges = q.data;
  const table = { loading: false, error: false, onRetry: () => void q.refetch() };
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-muted">{t('admin.desk.hedges_intro')}</p>
      {d.connected === 0 && <p className="rounded-xl bg-surface-2 px-4 py-3 text-sm">{t('admin.desk.hedge_disconnected')}</p>}
      <DeskList title={t('admin.desk.by_symbol')} empty={d.symbols.length === 0} emptyMessage={t('admin.desk.no_hedges')}>
        <DataTable
          label={t('admin.desk.by_symbol')}
          rows={d.symbols}
          rowKey={(r) => r.symbol_id}
          {...table}
          columns={[
            { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
            { key: 'clients', label: t('admin.desk.clients_net_lots'), render: (r) => signedLots(r.clients_net_lots) },
            { key: 'target', label: t('admin.desk.target_lots'), render: (r) => signedLots(r.target_lots) },
            { key: 'hedged', label: t('admin.desk.hedged_lots'), render: (r) => signedLots(r.hedged_lots) },
            {
              key: 'difference',
              label: t('admin.desk.difference_lots'),
              render: (r) =>
                dec(r.difference_lots).isZero() ? '0' : <span className="font-medium text-down">{signedLots(r.difference_lots)}</span>,
            },
          ]}
        />
      </DeskList>
      <DeskList title={t('admin.desk.hedge_positions')} empty={d.positions.length === 0} emptyMessage={t('admin.desk.no_hedges')}>
        <DataTable
          label={t('admin.desk.hedge_positions')}
          rows={d.positions}
          rowKey={(r) => `${r.session}:${r.symbol_id}`}
          {...table}
          columns={[
            { key: 'session', label: t('admin.desk.session'), render: (r) => r.session },
            { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
            { key: 'lots', label: t('admin.desk.net_lots'), render: (r) => signedLots(r.net_lots) },
            { key: 'updated', label: t('admin.desk.updated'), render: (r) => formatDateTime(r.updated_at) },
          ]}
        />
      </DeskList>
      <DeskList title={t('admin.desk.hedge_orders')} empty={d.orders.length === 0} emptyMessage={t('admin.desk.no_hedges')}>
        <DataTable
          label={t('admin.desk.hedge_orders')}
          rows={d.orders}
          rowKey={(r) => r.id}
          {...table}
          columns={[
            { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
            { key: 'session', label: t('admin.desk.session'), render: (r) => r.session },
            { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
            { key: 'side', label: t('admin.f.side'), render: (r) => t(r.side === 'buy' ? 'admin.buy' : 'admin.sell') },
            { key: 'lots', label: t('admin.f.lots'), render: (r) => formatNumber(r.lots, 2) },
            { key: 'filled', label: t('admin.desk.filled_lots'), render: (r) => formatNumber(r.filled_lots, 2) },
            { key: 'price', label: t('admin.desk.avg_price'), render: (r) => r.avg_price ?? '—' },
            { key: 'status', label: t('admin.f.status'), render: (r) => t(adminKey(`admin.desk.hedge_status.${r.status}`)) },
            {
              key: 'reason',
              label: t('admin.f.reason'),
              render: (r) =>
                `${t(adminKey(`admin.desk.hedge_reason.${r.reason}`))}${r.client_order_ids.length ? ` · #${r.client_order_ids.join(', #')}` : ''}`,
            },
            {
              key: 'mismatch',
              label: t('admin.desk.mismatch'),
              render: (r) =>
                r.mismatch ? <span className="font-medium text-down">{t(adminKey(`admin.desk.hedge_mismatch.${r.mismatch}`))}</span> : '—',
            },
          ]}
        />
      </DeskList>
    </div>
  );
}

function DeskList({
  title,
  empty,
  note,
  emptyMessage,
  children,
}: {
  title: string;
  empty: boolean;
  note?: string;
  emptyMessage?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <h2 className="mb-2 font-medium">{title}</h2>
      {note && <p className="mb-2 text-xs text-muted">{note}</p>}
      {empty ? <EmptyState message={emptyMessage ?? t('admin.desk.no_clients')} /> : children}
    </div>
  );
}

/** The desk's per-symbol limits on the clients' net lots: the list, and a form to set or remove one. */
function DeskLimits() {
  const { t } = useTranslation();
  const limits = useStaffQuery(api.deskLimits, undefined);
  const symbols = useStaffQuery(api.symbols, undefined);
  const groups = useStaffQuery(api.groupsList, undefined);
  const save = useStaffMutation(api.deskLimitSave);
  const [symbolId, setSymbolId] = useState('');
  const [groupId, setGroupId] = useState('');
  const [lots, setLots] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!symbolId) return setError(t('admin.fill_all'));
    save.mutate(
      { symbol_id: Number(symbolId), group_id: groupId ? Number(groupId) : undefined, max_net_lots: lots.trim() },
      { onSuccess: () => setLots(''), onError: (err) => setError(err.message) },
    );
  };
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted">{t('admin.desk.limits_intro')}</p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label={t('admin.desk.set_limit')}>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="desk-limit-symbol" className="text-sm text-muted">
            {t('admin.f.symbol')}
          </label>
          <select
            id="desk-limit-symbol"
            value={symbolId}
            onChange={(e) => setSymbolId(e.target.value)}
            className="rounded-lg border border-border bg-surface px-3 py-2.5"
          >
            <option value="">—</option>
            {(symbols.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.show_code}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="desk-limit-group" className="text-sm text-muted">
            {t('admin.desk.group')}
          </label>
          <select
            id="desk-limit-group"
            value={groupId}
            onChange={(e) => setGroupId(e.target.value)}
            className="rounded-lg border border-border bg-surface px-3 py-2.5"
          >
            <option value="">{t('admin.desk.all_clients')}</option>
            {(groups.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={t('admin.desk.max_net_lots')}
          inputMode="decimal"
          value={lots}
          onChange={(e) => setLots(e.target.value)}
          hint={t('admin.desk.limit_hint')}
          error={error}
        />
        <Button type="submit" disabled={save.isPending}>
          {t('admin.desk.set_limit')}
        </Button>
      </form>
      <DataTable
        label={t('admin.desk.limits')}
        {...tableState(limits)}
        rowKey={(r) => `${r.group_id ?? 0}:${r.symbol_id}`}
        columns={[
          { key: 'code', label: t('admin.f.symbol'), render: (r) => r.code },
          { key: 'group', label: t('admin.desk.group'), render: (r) => r.group_name ?? t('admin.desk.all_clients') },
          { key: 'lots', label: t('admin.desk.max_net_lots'), render: (r) => formatNumber(r.max_net_lots, 2) },
          {
            key: 'actions',
            label: t('admin.f.actions'),
            render: (r) => (
              <Button
                variant="secondary"
                disabled={save.isPending}
                aria-label={t('admin.desk.remove_limit', { symbol: r.group_name ? `${r.code} (${r.group_name})` : r.code })}
                onClick={() => save.mutate({ symbol_id: r.symbol_id, group_id: r.group_id ?? undefined, max_net_lots: '' })}
              >
                {t('admin.delete')}
              </Button>
            ),
          },
        ]}
      />
    </div>
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
          <SymbolTable label={t('admin.desk.by_symbol')} rows={desk.symbols} onRetry={onRetry} />
        )}
      </div>
      {desk.groups.length > 0 && (
        <div className="flex flex-col gap-4">
          <h2 className="font-medium">{t('admin.desk.by_group')}</h2>
          {desk.groups.map((g) => (
            <section key={g.group_id} aria-label={g.name} className="flex flex-col gap-2">
              <h3 className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                <span className="font-medium">{g.name}</span>
                <span className="text-muted">{t(adminKey(`admin.groups.book.${g.book}`))}</span>
                <span className="text-muted">
                  {t('admin.desk.group_totals', {
                    positions: formatNumber(g.totals.positions, 0),
                    net: formatMoney(g.totals.net_usd),
                    floating: formatMoney(g.totals.house_floating),
                  })}
                </span>
              </h3>
              <SymbolTable label={g.name} rows={g.symbols} onRetry={onRetry} />
            </section>
          ))}
        </div>
      )}
    </div>
  );
}

/** One symbol row per symbol: lots, USD exposure, the house's floating P&L and the limit (of every client, or of the group shown). */
function SymbolTable({ label, rows, onRetry }: { label: string; rows: DeskExposure['symbols']; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <DataTable
      label={label}
      rows={rows}
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
        {
          key: 'limit',
          label: t('admin.desk.limit'),
          render: (r) =>
            r.limit_lots ? (
              <span className={r.over_limit ? 'font-medium text-down' : undefined}>
                {formatNumber(r.limit_lots, 2)}
                {r.over_limit ? ` · ${t('admin.desk.over')}` : ''}
              </span>
            ) : (
              '—'
            ),
        },
      ]}
    />
  );
}
