import { LANGUAGES, isRtl, normalizeLang, type LangCode } from '@tp/contract/languages';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { toast } from '../../../components/ui/toast-store';
import { setLanguage } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** /language: the 18 languages in their own names; a choice applies at once and is remembered. */
export function LanguagePage() {
  const { t, i18n } = useTranslation();
  const current = normalizeLang(i18n.language);

  const choose = async (code: LangCode) => {
    if (code === current) return;
    try {
      await setLanguage(code);
    } catch {
      toast(t('errors.load_failed'), 'error');
      return;
    }
    // Server texts (messages, translated names) follow the lang header: fetch them again.
    void queryClient.invalidateQueries();
  };

  return (
    <>
      <PageHeader title={t('pages.language')} />
      <p className="px-4 pt-3 text-sm text-muted">{t('language.hint')}</p>
      <ul aria-label={t('language.list')} className="divide-y divide-border">
        {LANGUAGES.map((language) => {
          const selected = language.code === current;
          return (
            <li key={language.code}>
              <button
                type="button"
                aria-pressed={selected}
                onClick={() => void choose(language.code)}
                className={`flex w-full items-center gap-3 px-4 py-3.5 text-start hover:bg-surface ${selected ? 'text-accent' : 'text-text'}`}
              >
                <span lang={language.locale} dir={isRtl(language.code) ? 'rtl' : 'ltr'} className="flex-1">
                  {language.name}
                </span>
                {selected && <CheckIcon />}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
