import { LANGUAGES, type LangCode } from '@tp/contract/languages';
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** English first: the reference every other language is translated from. */
const ORDER: LangCode[] = ['en', ...LANGUAGES.map((l) => l.code).filter((c) => c !== 'en')];
const nameOf = (code: LangCode) => LANGUAGES.find((l) => l.code === code)!.name;

/**
 * One tab per language for text staff write in every language (news, the announcement notice).
 * Each tab says whether that language has a text; an empty one is served in English.
 * Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern).
 */
export function LanguageTabs({
  value,
  onChange,
  filled,
  label,
  panelId,
}: {
  value: LangCode;
  onChange: (lang: LangCode) => void;
  filled: (lang: LangCode) => boolean;
  label: string;
  panelId: string;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  const move = (e: KeyboardEvent) => {
    const i = ORDER.indexOf(value);
    const rtl = document.documentElement.dir === 'rtl';
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[e.key];
    const next = step
      ? ORDER[(i + step + ORDER.length) % ORDER.length]
      : e.key === 'Home'
        ? ORDER[0]
        : e.key === 'End'
          ? ORDER.at(-1)
          : undefined;
    if (!next) return;
    e.preventDefault();
    onChange(next);
    list.current?.querySelector<HTMLElement>(`[data-lang="${next}"]`)?.focus();
  };
  return (
    <div ref={list} role="tablist" aria-label={label} className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1 md:flex-wrap md:overflow-visible" onKeyDown={move}>
      {ORDER.map((code) => {
        const done = filled(code);
        const selected = code === value;
        return (
          <button
            key={code}
            type="button"
            role="tab"
            id={`${panelId}-${code}`}
            data-lang={code}
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            lang={code === 'hk' ? 'zh-Hant-HK' : undefined}
            onClick={() => onChange(code)}
            className={`flex shrink-0 items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm ${selected ? 'bg-accent text-on-accent' : 'bg-surface-2'}`}
          >
            <span aria-hidden="true" className={`size-2 rounded-full ${done ? 'bg-up' : 'border border-current opacity-60'}`} />
            {nameOf(code)}
            <span className="sr-only">
              {code === 'en' ? t('admin.lang_reference') : done ? t('admin.lang_translated') : t('admin.lang_empty')}
            </span>
          </button>
        );
      })}
    </div>
  );
}

export const LANGUAGE_ORDER = ORDER;
export const languageName = nameOf;
