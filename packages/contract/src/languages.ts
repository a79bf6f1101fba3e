/** The spec's 18 language codes, each with its BCP 47 locale and its own name (ARCHITECTURE.md). */
export const LANGUAGES = [
  { code: 'en', locale: 'en', name: 'English' },
  { code: 'jp', locale: 'ja', name: '日本語' },
  { code: 'kr', locale: 'ko', name: '한국어' },
  { code: 'hk', locale: 'zh-Hant-HK', name: '繁體中文' },
  { code: 'th', locale: 'th', name: 'ไทย' },
  { code: 'vn', locale: 'vi', name: 'Tiếng Việt' },
  { code: 'fr', locale: 'fr', name: 'Français' },
  { code: 'de', locale: 'de', name: 'Deutsch' },
  { code: 'ru', locale: 'ru', name: 'Русский' },
  { code: 'spa', locale: 'es', name: 'Español' },
  { code: 'pt', locale: 'pt', name: 'Português' },
  { code: 'it', locale: 'it', name: 'Italiano' },
  { code: 'ar', locale: 'ar-u-nu-latn', name: 'العربية', rtl: true },
  { code: 'tr', locale: 'tr', name: 'Türkçe' },
  { code: 'id', locale: 'id', name: 'Bahasa Indonesia' },
  { code: 'my', locale: 'ms', name: 'Bahasa Melayu' },
  { code: 'hi', locale: 'hi', name: 'हिन्दी' },
  { code: 'cs', locale: 'cs', name: 'Čeština' },
] as const;

export type LangCode = (typeof LANGUAGES)[number]['code'];
export const LANG_CODES = LANGUAGES.map((l) => l.code) as LangCode[];
export const DEFAULT_LANG: LangCode = 'hk';
/** The language of an HTTP answer to a client that sends no `lang` header (API clients and bots; the web app always sends one). */
export const API_DEFAULT_LANG: LangCode = 'en';
const ALIASES: Record<string, LangCode> = { tw: 'hk' };

/** Maps any incoming language code (header, query, storage) to a supported one; unknown -> hk. */
export function normalizeLang(input: string | null | undefined): LangCode {
  const code = (input ?? '').trim().toLowerCase();
  if (ALIASES[code]) return ALIASES[code];
  return (LANG_CODES as string[]).includes(code) ? (code as LangCode) : DEFAULT_LANG;
}

export function isSupportedLang(input: string | null | undefined): boolean {
  const code = (input ?? '').trim().toLowerCase();
  return code in ALIASES || (LANG_CODES as string[]).includes(code);
}

export const localeOf = (code: LangCode): string => LANGUAGES.find((l) => l.code === code)!.locale;
export const isRtl = (code: LangCode): boolean => code === 'ar';

/** Maps a browser language tag (navigator.language) to one of ours, or null. */
export function langFromBrowser(tag: string): LangCode | null {
  const t = tag.toLowerCase();
  if (t.startsWith('zh')) return 'hk';
  const base = t.split('-')[0]!;
  const byLocale = LANGUAGES.find((l) => l.locale.split('-')[0] === base);
  return byLocale ? byLocale.code : null;
}
