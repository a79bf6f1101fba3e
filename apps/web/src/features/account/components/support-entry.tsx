import { useState } from 'react';
import { ServiceLinkType } from '@tp/contract/constants';
import { openableHref } from '@tp/contract/links';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { ChevronIcon } from '../../../components/ui/icons';
import { useBasicInfo } from '../../../api/get-basic-info';

/** Customer service by service_link_type: 2 a copy dialog, 3 a redirect, otherwise the in-app chat. */
export function SupportEntry() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const basic = useBasicInfo();
  const [copyOpen, setCopyOpen] = useState(false);
  const link = basic.data?.service_link ?? '';

  const open = () => {
    const type = basic.data?.service_link_type;
    // The server stores http: only where staff allow it; the scheme is checked again before leaving the app.
    const href = openableHref(link, { allowHttp: true });
    if (type === ServiceLinkType.COPY && link) setCopyOpen(true);
    else if (type === ServiceLinkType.REDIRECT && href) window.location.assign(href);
    else navigate('/mine/chat');
  };

  return (
    <>
      <button type="button" onClick={open} className="flex w-full items-center gap-3 px-4 py-3.5 text-start hover:bg-surface">
        <span className="flex-1">{t('pages.chat')}</span>
        <ChevronIcon className="size-4 text-muted" />
      </button>
      <Dialog open={copyOpen} onClose={() => setCopyOpen(false)} title={t('pages.chat')}>
        <div className="flex flex-col gap-3">
          <p className="text-sm text-muted">{t('account.support_copy_hint')}</p>
          <div className="flex items-center gap-2 rounded-lg bg-surface-2 px-3 py-2">
            <span className="min-w-0 flex-1 break-all text-sm">{link}</span>
            <CopyButton text={link} label={t('account.copy')} />
          </div>
        </div>
      </Dialog>
    </>
  );
}
