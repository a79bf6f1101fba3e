import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { formatDateTime } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { type ApiKey, useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

type KeyStatus = 'active' | 'revoked' | 'expired';

const statusOf = (key: ApiKey, now: number): KeyStatus =>
  key.revoked_at ? 'revoked' : key.expires_at && new Date(key.expires_at).getTime() <= now ? 'expired' : 'active';

const STATUS_CLASS: Record<KeyStatus, string> = {
  active: 'bg-up/15 text-up',
  revoked: 'bg-surface-2 text-muted',
  expired: 'bg-surface-2 text-muted',
};

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  const { t } = useTranslation();
  const status = statusOf(apiKey, Date.now());
  const facts: [string, ReactNode][] = [
    [
      t('account.api_keys.scopes'),
      new Intl.ListFormat(currentLocale(), { type: 'conjunction' }).format(
        apiKey.scopes.map((s) => t(`account.api_keys.scope_name_${s}`, { defaultValue: s })),
      ),
    ],
    [
      t('account.api_keys.ip_allow_short'),
      apiKey.ip_allow.length ? <span dir="ltr">{apiKey.ip_allow.join(', ')}</span> : t('account.api_keys.any_ip'),
    ],
    [t('account.api_keys.created_at'), formatDateTime(apiKey.created_at)],
    [t('account.api_keys.expires_at'), apiKey.expires_at ? formatDateTime(apiKey.expires_at) : t('account.api_keys.no_expiry')],
    [t('account.api_keys.last_used'), apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : t('account.api_keys.never_used')],
  ];
  return (
    <li data-testid="api-key-row" data-status={status} className="flex flex-col gap-3 px-4 py-4">
      <div className="flex items-center gap-3">
        <h3 className="min-w-0 flex-1 truncate font-medium">{apiKey.name}</h3>
        <span data-testid="api-key-status" className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_CLASS[status]}`}>
          {t(`account.api_keys.status_${status}`)}
        </span>
        {status === 'active' && (
          <Button variant="secondary" className="px-3 py-1.5 text-xs" data-testid="api-key-revoke" onClick={() => onRevoke(apiKey)}>
            {t('account.api_keys.revoke')}
          </Button>
        )}
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="flex min-w-0 justify-between gap-3 sm:flex-col sm:justify-start sm:gap-0.5">
            <dt className="shrink-0 text-muted">{label}</dt>
            <dd className="min-w-0 break-words text-end tabular-nums sm:text-start">{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

/** The user's keys with their state and last use; an active key can be revoked after a confirmation. */
export function ApiKeyList() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <section aria-labelledby="api-key-list-title" className="flex flex-col">
      <h2 id="api-key-list-title" className="px-4 pb-2 font-medium">
        {t('account.api_keys.list_title')}
      </h2>
      {keys.isPending ? (
        <SkeletonRows rows={3} />
      ) : keys.isError ? (
        <ErrorState message={keys.error.message || undefined} onRetry={() => void keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <EmptyState message={t('account.api_keys.empty')} />
      ) : (
        <ul data-testid="api-key-list" className="divide-y divide-border rounded-xl bg-surface">
          {keys.data.map((key) => (
            <KeyRow key={key.id} apiKey={key} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={t('account.api_keys.revoke_title')}
        danger
        busy={revoke.isPending}
        confirmLabel={t('account.api_keys.revoke')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      >
        <p className="text-sm">{t('account.api_keys.revoke_body', { name: revoking?.name ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}
