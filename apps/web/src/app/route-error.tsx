import { useTranslation } from 'react-i18next';
import { Button } from '../components/ui/button';

/** Shown when a page fails to render or its code chunk cannot be loaded (e.g. after a deploy). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main role="alert" className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-6 text-center text-text">
      <p>{t('errors.page_failed')}</p>
      <Button onClick={() => window.location.reload()}>{t('errors.reload')}</Button>
    </main>
  );
}
