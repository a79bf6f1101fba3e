import { localeOf, type LangCode } from '@tp/contract/languages';

/** An area code as /api/default/area_list gives it: global_code already carries its "+" (e.g. "+852"). */
export interface AreaLike {
  id: number;
  code: string;
  global_code: string;
  name: string;
}

/**
 * The country the phone picker starts at for each UI language, when the browser does not name one
 * of that language: the language's own country; ar -> United Arab Emirates (+971); en -> United
 * States (+1, the code shared by the North American Numbering Plan).
 */
export const LANG_COUNTRY: Record<LangCode, string> = {
  en: 'US',
  jp: 'JP',
  kr: 'KR',
  hk: 'HK',
  th: 'TH',
  vn: 'VN',
  fr: 'FR',
  de: 'DE',
  ru: 'RU',
  spa: 'ES',
  pt: 'PT',
  it: 'IT',
  ar: 'AE',
  tr: 'TR',
  id: 'ID',
  my: 'MY',
  hi: 'IN',
  cs: 'CZ',
};

/** "+852" whether the stored code has its "+" or not: shown with exactly one. */
export const dialCode = (globalCode: string): string => `+${globalCode.trim().replace(/^\++/, '')}`;

/**
 * The area to start at: the browser's region when its language is the UI's (en-GB -> United
 * Kingdom), else the UI language's country, else the first of the list.
 */
export function defaultArea<T extends AreaLike>(areas: readonly T[], lang: LangCode, browserTags: readonly string[] = []): T | undefined {
  const byCode = (code: string | undefined) => (code ? areas.find((a) => a.code.toUpperCase() === code.toUpperCase()) : undefined);
  const base = localeOf(lang).split('-')[0]!.toLowerCase();
  for (const tag of browserTags) {
    let locale: Intl.Locale;
    try {
      locale = new Intl.Locale(tag);
    } catch {
      continue;
    }
    const sameLanguage = locale.language.toLowerCase() === base || (lang === 'hk' && locale.language === 'zh');
    const found = sameLanguage ? byCode(locale.region) : undefined;
    if (found) return found;
  }
  return byCode(LANG_COUNTRY[lang]) ?? areas[0];
}

/** Country names in the UI language (Intl.DisplayNames), the server's English name where it has none. */
export function areaNamer(lang: LangCode): (area: AreaLike) => string {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([localeOf(lang)], { type: 'region', fallback: 'none' });
  } catch {
    names = null;
  }
  return (area) => {
    try {
      return names?.of(area.code.toUpperCase()) ?? area.name;
    } catch {
      return area.name;
    }
  };
}

/** The picker's options: localized names, sorted in the UI language's order. */
export function areaOptions<T extends AreaLike>(areas: readonly T[], lang: LangCode): { area: T; label: string; name: string }[] {
  const nameOf = areaNamer(lang);
  const collator = new Intl.Collator(localeOf(lang));
  return areas
    .map((area) => {
      const name = nameOf(area);
      // The code is isolated left-to-right, so "+971" keeps its "+" in front in Arabic too.
      return { area, name, label: `\u2066${dialCode(area.global_code)}\u2069 ${name}` };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
}
