import { useState } from 'react';
import type { AccountGroup, AdminOrder, AdminUser } from '@tp/contract/schemas/admin';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { hasRole, useStaffSession } from '../../../lib/staff-session-store';
import { ScreenTabs, ScreenTitle } from './screen-header';
import { AdjustBalanceDialog } from './adjust-balance-dialog';
import { DataTable, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';

const TABS = ['profile', 'sessions', 'api_keys', 'ledger', 'orders'] as const;
type Tab = (typeof TABS)[number];

/** One user: profile, sessions, API keys, ledger and orders; disable/enable and (finance) balance adjustment. */
export function UserDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userId = Number(useParams().userId);
  const [tab, setTab] = useState<Tab>('profile');
  const profile = useStaffQuery(api.userProfile, { user_id: userId });
  return (
    <section>
      <div className="mb-2">
        <Button variant="ghost" onClick={() => navigate('/admin/users')}>
          <span className="rtl:rotate-180">‹</span> {t('common.back')}
        </Button>
      </div>
      <ScreenTitle>{profile.data ? profile.data.email || profile.data.mobile || profile.data.uid : t('admin.nav.users')}</ScreenTitle>
      <ScreenTabs tabs={TABS} value={tab} onChange={setTab} label={t('admin.user_tabs')} />
      {tab === 'profile' &&
        (profile.isLoading ? (
          <SkeletonRows rows={4} />
        ) : profile.isError || !profile.data ? (
          <ErrorState onRetry={() => profile.refetch()} />
        ) : (
          <Profile user={profile.data} />
        ))}
      {tab === 'sessions' && <Sessions userId={userId} />}
      {tab === 'api_keys' && <ApiKeys userId={userId} />}
      {tab === 'ledger' && <Ledger userId={userId} />}
      {tab === 'orders' && <Orders userId={userId} />}
    </section>
  );
}

function Profile({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const staff = useStaffSession((s) => s.staff);
  const [confirming, setConfirming] = useState(false);
  const [adjusting, setAdjusting] = useState(false);
  const status = useStaffMutation(api.userStatus);
  // Groups are the risk role's: others see the group's number only.
  const risk = hasRole(staff, ['risk']);
  const groups = useStaffQuery(api.groupsList, undefined, { enabled: risk });
  const group = groups.data?.find((g) => g.id === user.group_id);
  const [moving, setMoving] = useState(false);
  const rows: [string, string][] = [
    [t('admin.f.id'), String(user.id)],
    [t('admin.f.uid'), user.uid],
    [t('admin.f.email'), user.email || '--'],
    [t('admin.f.mobile'), user.mobile || '--'],
    [t('admin.f.account'), t(user.is_demo ? 'admin.demo' : 'admin.real')],
    [t('admin.f.status'), t(adminKey(`admin.user_status.${user.status}`))],
    [t('admin.groups.f.group'), group ? group.name : `#${user.group_id}`],
    [t('admin.f.identity'), t(adminKey(`admin.identity_status.${user.review_status}`))],
    [t('admin.f.balance'), formatMoney(user.balance)],
    [t('admin.f.lock_balance'), formatMoney(user.lock_balance)],
    [t('admin.f.invite_code'), user.invite_code],
    [t('admin.f.time'), formatDateTime(user.created_at)],
  ];
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-xl bg-surface p-4 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted">{k}</dt>
            <dd className="tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button variant={user.status ? 'danger' : 'primary'} onClick={() => setConfirming(true)}>
          {t(user.status ? 'admin.disable_user' : 'admin.enable_user')}
        </Button>
        {hasRole(staff, ['finance']) && <Button onClick={() => setAdjusting(true)}>{t('admin.adjust_balance')}</Button>}
        {risk && (
          <Button variant="secondary" disabled={!groups.data} onClick={() => setMoving(true)}>
            {t('admin.groups.move')}
          </Button>
        )}
      </div>
      {confirming && (
        <PromptDialog
          title={t(user.status ? 'admin.disable_user' : 'admin.enable_user')}
          danger={Boolean(user.status)}
          busy={status.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => status.mutate({ user_id: user.id, status: user.status ? 0 : 1 }, { onSuccess: () => setConfirming(false) })}
        >
          <p>{user.status ? t('admin.disable_hint') : user.email}</p>
        </PromptDialog>
      )}
      {adjusting && <AdjustBalanceDialog user={user} onClose={() => setAdjusting(false)} />}
      {moving && groups.data && <MoveGroupDialog user={user} groups={groups.data} onClose={() => setMoving(false)} />}
    </div>
  );
}

/** Moves the user to another group of their kind; open positions keep the terms they opened on. */
function MoveGroupDialog({ user, groups, onClose }: { user: AdminUser; groups: AccountGroup[]; onClose: () => void }) {
  const { t } = useTranslation();
  const kind = user.is_demo ? 'demo' : 'real';
  const choices = groups.filter((g) => g.kind === kind && g.id !== user.group_id);
  const [target, setTarget] = useState(choices[0] ? String(choices[0].id) : '');
  const move = useStaffMutation(api.userSetGroup, 'admin.groups.moved');
  const current = groups.find((g) => g.id === user.group_id);
  return (
    <PromptDialog
      title={t('admin.groups.move_title')}
      busy={move.isPending || !target}
      onCancel={onClose}
      onConfirm={() => move.mutate({ user_id: user.id, group_id: Number(target) }, { onSuccess: onClose })}
    >
      {current && <p>{t('admin.groups.current', { name: current.name })}</p>}
      {choices.length === 0 ? (
        <p>{t('admin.groups.no_other')}</p>
      ) : (
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted">{t('admin.groups.target')}</span>
          <select
            className="rounded-lg border border-border bg-surface px-3 py-2 text-text"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          >
            {choices.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className="text-sm text-muted">{t('admin.groups.move_hint')}</p>
    </PromptDialog>
  );
}

function Sessions({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const q = useStaffQuery(api.userSessions, { user_id: userId });
  const end = useStaffMutation(api.userSessionsEnd);
  const [ending, setEnding] = useState<number | 'all' | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button variant="danger" disabled={!q.data?.length} onClick={() => setEnding('all')}>
          {t('admin.end_all_sessions')}
        </Button>
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.sessions')}
        rowKey={(r) => r.id}
        columns={[
          { key: 'ip', label: t('admin.f.ip'), render: (r) => r.ip },
          { key: 'ua', label: t('admin.f.device'), render: (r) => <span className="line-clamp-2 max-w-xs break-all">{r.user_agent}</span> },
          { key: 'created', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          { key: 'expires', label: t('admin.f.expires'), render: (r) => formatDateTime(r.expires_at) },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) => (
              <Button variant="secondary" onClick={() => setEnding(r.id)}>
                {t('admin.end_session')}
              </Button>
            ),
          },
        ]}
      />
      {ending !== null && (
        <PromptDialog
          title={t(ending === 'all' ? 'admin.end_all_sessions' : 'admin.end_session')}
          danger
          busy={end.isPending}
          onCancel={() => setEnding(null)}
          onConfirm={() =>
            end.mutate({ user_id: userId, session_id: ending === 'all' ? undefined : ending }, { onSuccess: () => setEnding(null) })
          }
        />
      )}
    </div>
  );
}

/** The user's API keys as the user sees them (never the secret), with a staff revoke (audited on the server). */
function ApiKeys({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const q = useStaffQuery(api.userApiKeys, { user_id: userId });
  const revoke = useStaffMutation(api.userApiKeyRevoke);
  const [revoking, setRevoking] = useState<{ id: number; name: string } | null>(null);
  const statusOf = (k: { revoked_at: string | null; expires_at: string | null }) =>
    k.revoked_at ? 'revoked' : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? 'expired' : 'active';
  return (
    <div className="flex flex-col gap-3">
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.api_keys')}
        rowKey={(r) => r.id}
        columns={[
          { key: 'name', label: t('account.api_keys.name'), render: (r) => r.name },
          {
            key: 'scopes',
            label: t('account.api_keys.scopes'),
            render: (r) => r.scopes.map((s) => t(`account.api_keys.scope_name_${s}`, { defaultValue: s })).join(', '),
          },
          {
            key: 'ip',
            label: t('account.api_keys.ip_allow_short'),
            render: (r) => (r.ip_allow.length ? <span dir="ltr">{r.ip_allow.join(', ')}</span> : t('account.api_keys.any_ip')),
          },
          { key: 'created', label: t('account.api_keys.created_at'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'expires',
            label: t('account.api_keys.expires_at'),
            render: (r) => (r.expires_at ? formatDateTime(r.expires_at) : t('account.api_keys.no_expiry')),
          },
          {
            key: 'used',
            label: t('account.api_keys.last_used'),
            render: (r) => (r.last_used_at ? formatDateTime(r.last_used_at) : t('account.api_keys.never_used')),
          },
          { key: 'status', label: t('admin.f.status'), render: (r) => t(`account.api_keys.status_${statusOf(r)}`) },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) =>
              statusOf(r) === 'revoked' ? null : (
                <Button
                  variant="secondary"
                  onClick={() => setRevoking({ id: r.id, name: r.name })}
                  aria-label={`${t('account.api_keys.revoke')} ${r.name}`}
                >
                  {t('account.api_keys.revoke')}
                </Button>
              ),
          },
        ]}
      />
      {revoking && (
        <PromptDialog
          title={t('account.api_keys.revoke_title')}
          danger
          busy={revoke.isPending}
          onCancel={() => setRevoking(null)}
          onConfirm={() => revoke.mutate({ user_id: userId, id: revoking.id }, { onSuccess: () => setRevoking(null) })}
        >
          <p>{t('account.api_keys.revoke_body', { name: revoking.name })}</p>
        </PromptDialog>
      )}
    </div>
  );
}

function Ledger({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(api.userLedger, { user_id: userId, page });
  return (
    <DataTable
      {...tableState(q)}
      label={t('admin.tab.ledger')}
      page={page}
      onPage={setPage}
      rowKey={(r) => r.id}
      columns={[
        { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
        { key: 'account', label: t('admin.f.account'), render: (r) => t(adminKey(`admin.ledger_account.${r.account}`)) },
        { key: 'type', label: t('admin.f.type'), render: (r) => t(adminKey(`admin.ledger_type.${r.type}`), { defaultValue: r.type }) },
        { key: 'amount', label: t('admin.f.amount'), render: (r) => formatMoney(r.amount, { signed: true }), className: 'tabular-nums' },
        { key: 'memo', label: t('admin.f.memo'), render: (r) => r.memo },
      ]}
    />
  );
}

export function OrdersTable({
  rows,
  loading,
  error,
  onRetry,
  page,
  total,
  onPage,
  onClose,
  onReverse,
}: {
  rows?: AdminOrder[];
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  page: number;
  total?: number;
  onPage: (p: number) => void;
  onClose?: (order: AdminOrder) => void;
  /** Staff may reverse a closed trade (risk or admin). */
  onReverse?: (order: AdminOrder) => void;
}) {
  const { t } = useTranslation();
  return (
    <DataTable
      label={t('admin.tab.orders')}
      rows={rows}
      total={total}
      page={page}
      onPage={onPage}
      rowKey={(r) => r.id}
      loading={loading}
      error={error}
      onRetry={onRetry}
      columns={[
        { key: 'id', label: t('admin.f.id'), render: (r) => r.id },
        { key: 'user', label: t('admin.f.user'), render: (r) => r.user },
        { key: 'symbol', label: t('admin.f.symbol'), render: (r) => r.symbol },
        { key: 'side', label: t('admin.f.side'), render: (r) => t(r.order_type === 1 ? 'admin.buy' : 'admin.sell') },
        { key: 'lots', label: t('admin.f.lots'), render: (r) => `${r.quantity} × ${r.multiple}` },
        { key: 'price', label: t('admin.f.price'), render: (r) => r.price || r.origin_price },
        { key: 'margin', label: t('admin.f.margin'), render: (r) => formatMoney(r.caution_money) },
        { key: 'profit', label: t('admin.f.profit'), render: (r) => formatMoney(r.fact_profits) },
        {
          key: 'status',
          label: t('admin.f.status'),
          render: (r) =>
            t(adminKey(`admin.order_status.${r.status}`)) +
            (r.closed_type ? ` · ${t(adminKey(`admin.closed_type.${r.closed_type}`))}` : '') +
            (r.reversed_at ? ` · ${t('admin.reversed')}` : ''),
        },
        { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
        ...(onClose
          ? [
              {
                key: 'act',
                label: t('admin.f.actions'),
                render: (r: AdminOrder) =>
                  r.status === 1 && (
                    <Button variant="danger" onClick={() => onClose(r)} aria-label={t('admin.close_position_of', { id: r.id })}>
                      {t('admin.close_position')}
                    </Button>
                  ),
              },
            ]
          : []),
        ...(onReverse
          ? [
              {
                key: 'reverse',
                label: t('admin.f.actions'),
                render: (r: AdminOrder) =>
                  r.status === 3 &&
                  !r.reversed_at && (
                    <Button variant="danger" onClick={() => onReverse(r)} aria-label={t('admin.reverse_trade_of', { id: r.id })}>
                      {t('admin.reverse_trade')}
                    </Button>
                  ),
              },
            ]
          : []),
      ]}
    />
  );
}

function Orders({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(api.userOrders, { user_id: userId, page });
  const staff = useStaffSession((s) => s.staff);
  const canReverse = hasRole(staff, ['risk']);
  const reverse = useStaffMutation(api.positionReverse);
  const [reversing, setReversing] = useState<AdminOrder | null>(null);
  return (
    <>
      <OrdersTable {...tableState(q)} page={page} onPage={setPage} onReverse={canReverse ? setReversing : undefined} />
      {reversing && (
        <PromptDialog
          title={t('admin.reverse_trade_of', { id: reversing.id })}
          label={t('admin.reverse_reason')}
          danger
          busy={reverse.isPending}
          onCancel={() => setReversing(null)}
          onConfirm={(reason) => reverse.mutate({ id: reversing.id, reason }, { onSuccess: () => setReversing(null) })}
        >
          <p>
            {t('admin.reverse_trade_hint', {
              id: reversing.id,
              symbol: reversing.symbol,
              user: reversing.user,
              profit: formatMoney(reversing.fact_profits),
              fee: formatMoney(reversing.trade_fee),
            })}
          </p>
        </PromptDialog>
      )}
    </>
  );
}
