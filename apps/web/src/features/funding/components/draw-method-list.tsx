import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { useDeleteDrawMethod } from '../api/delete-draw-method';
import { useDrawMethods, type DrawMethod } from '../api/get-draw-methods';

function MethodCard({ method, onDelete }: { method: DrawMethod; onDelete: () => void }) {
  const { t } = useTranslation();
  const currency = method.draw_currency.protocol
    ? `${method.draw_currency.code} (${method.draw_currency.protocol})`
    : method.draw_currency.code;
  return (
    <li className="flex items-start gap-3 rounded-xl bg-surface p-4">
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <span className="font-medium">{currency}</span>
        {method.type === 1 ? (
          <span className="break-all text-muted" dir="ltr">
            {method.dc_address}
          </span>
        ) : (
          <>
            <span>{method.bank_name}</span>
            <span className="text-muted">
              {method.payee_name} · <span dir="ltr">{method.payee_account}</span>
            </span>
            {method.bank_swift && <span className="text-xs text-muted">{`${t('funding.bank_swift')}: ${method.bank_swift}`}</span>}
          </>
        )}
      </div>
      <Button
        variant="ghost"
        className="px-2 py-1 text-xs text-down"
        aria-label={t('funding.delete_named', { name: method.type === 1 ? method.dc_address : method.payee_account })}
        onClick={onDelete}
      >
        {t('funding.delete')}
      </Button>
    </li>
  );
}

/** Bound coin addresses (1) or bank accounts (2): delete with confirmation, add a new one. */
export function DrawMethodList({ type }: { type: 1 | 2 }) {
  const { t } = useTranslation();
  const methods = useDrawMethods(type, undefined, true);
  const remove = useDeleteDrawMethod();
  const [deleting, setDeleting] = useState<DrawMethod | null>(null);
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 p-4">
      {methods.isPending ? (
        <SkeletonRows rows={3} />
      ) : methods.isError ? (
        <ErrorState onRetry={() => void methods.refetch()} />
      ) : methods.data.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="flex flex-col gap-3" aria-label={type === 1 ? t('pages.coin_address_list') : t('pages.bank_card_list')}>
          {methods.data.map((m) => (
            <MethodCard key={m.id} method={m} onDelete={() => setDeleting(m)} />
          ))}
        </ul>
      )}
      <Link
        to={`/mine/withdraw-way?type=${type}`}
        className="flex justify-center rounded-lg bg-accent px-4 py-2.5 text-sm font-medium text-on-accent"
      >
        {type === 1 ? t('funding.add_address') : t('funding.add_bank')}
      </Link>
      <ConfirmDialog
        open={deleting !== null}
        title={t('funding.delete')}
        danger
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      >
        <p className="text-sm">{t('messages.confirm_deletion')}</p>
      </ConfirmDialog>
    </div>
  );
}
