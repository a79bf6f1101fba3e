import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { useUserInfo } from '../api/get-user-info';

/** /mine/email: the email address and phone number the account signs in with. */
export function EmailPage() {
  const { t } = useTranslation();
  const info = useUserInfo();
  return (
    <>
      <PageHeader title={t('pages.email')} />
      <div className="mx-auto w-full max-w-md p-4">
        {info.isPending ? (
          <SkeletonRows rows={2} />
        ) : info.isError ? (
          <ErrorState onRetry={() => void info.refetch()} />
        ) : (
          <dl className="divide-y divide-border rounded-xl bg-surface">
            <div className="flex items-center gap-3 px-4 py-3.5">
              <dt className="flex-1 text-muted">{t('account.email')}</dt>
              <dd className="min-w-0 break-all" dir={info.data.email ? 'ltr' : undefined}>
                {info.data.email || t('account.not_bound')}
              </dd>
            </div>
            <div className="flex items-center gap-3 px-4 py-3.5">
              <dt className="flex-1 text-muted">{t('account.mobile')}</dt>
              <dd dir="ltr">{info.data.mobile || t('account.not_bound')}</dd>
            </div>
          </dl>
        )}
        <p className="mt-3 text-xs text-muted">{t('account.email_hint')}</p>
      </div>
    </>
  );
}
