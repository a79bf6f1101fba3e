import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';
import { getTwoFactorStatusQueryOptions } from '../../../api/get-two-factor-status';
import { ApiKeyCreateForm } from './api-key-create-form';
import { ApiKeyList } from './api-key-list';

/** The new key, shown this once, with a copy button and the warning that it will not be shown again. */
function NewKeyDialog({ apiKey, onClose }: { apiKey: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={apiKey !== null}
      onClose={onClose}
      title={t('account.api_keys.created_title')}
      footer={
        <Button block data-testid="api-key-saved" onClick={onClose}>
          {t('account.api_keys.saved')}
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <p role="alert" className="rounded-lg bg-down/10 px-3 py-2 text-sm text-down">
          {t('account.api_keys.shown_once')}
        </p>
        <div className="flex items-center gap-2">
          <code dir="ltr" data-testid="api-key-secret" className="min-w-0 flex-1 break-all rounded-lg bg-surface-2 px-3 py-2 text-xs">
            {apiKey}
          </code>
          <CopyButton text={apiKey ?? ''} label={t('account.api_keys.copy_key')} />
        </div>
      </div>
    </Dialog>
  );
}

/** /mine/api-keys: keys for the user's own bots: create (shown once), list with last use, revoke. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const demo = isDemoUser(useSessionStore((state) => state.user));
  // Demo accounts have no second factor (the status call is for real accounts only).
  const twoFactor = useQuery({ ...getTwoFactorStatusQueryOptions(), enabled: !demo });
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={t('pages.api_keys')} />
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4">
        <p className="text-sm text-muted">{t('account.api_keys.intro')}</p>
        <ApiKeyCreateForm needsTotp={twoFactor.data?.enabled === true} onCreated={setCreated} />
        <ApiKeyList />
      </div>
      <NewKeyDialog apiKey={created} onClose={() => setCreated(null)} />
    </>
  );
}
