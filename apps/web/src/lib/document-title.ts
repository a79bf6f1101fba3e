import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageActive } from './page-activity';

/** Sets the browser tab title while the page is the one shown. */
export function useDocumentTitle(title: string): void {
  const { t } = useTranslation();
  const active = usePageActive();
  const appName = t('common.app_name');
  useEffect(() => {
    if (active) document.title = title === appName ? appName : `${title} · ${appName}`;
  }, [active, title, appName]);
}
