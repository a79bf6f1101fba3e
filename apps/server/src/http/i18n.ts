import fs from 'node:fs';
import path from 'node:path';
import { LOCALES_DIR } from '../paths.ts';
import { DEFAULT_LANG, LANG_CODES, type LangCode, localeOf, normalizeLang } from '@tp/contract/languages';
import { formatAmount } from '@tp/contract/number-format';

/** An amount of money in a message: written as the web app writes money, in the message's language. */
export class Money {
  constructor(readonly value: string) {}
}
export const money = (value: { toString(): string } | string): Money => new Money(value.toString());
export type MessageParams = Record<string, string | number | Money>;

type Catalogue = Record<string, string>;

/** Server messages live per module: locales/<module>/<lang>.json, merged into one catalogue per language. */
const dir = LOCALES_DIR;
const catalogues = new Map<LangCode, Catalogue>();

function load(lang: LangCode): Catalogue {
  let cat = catalogues.get(lang);
  if (!cat) {
    cat = {};
    for (const mod of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!mod.isDirectory()) continue;
      const file = path.join(dir, mod.name, `${lang}.json`);
      if (fs.existsSync(file)) Object.assign(cat, JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue);
    }
    catalogues.set(lang, cat);
  }
  return cat;
}

const unitFormats = new Map<string, Intl.NumberFormat>();
function unitFormat(locale: string, unit: 'minute' | 'second'): Intl.NumberFormat {
  const key = `${locale}|${unit}`;
  let format = unitFormats.get(key);
  if (!format) unitFormats.set(key, (format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' })));
  return format;
}

/** Translates a server message key; falls back to English, then to the key itself. */
export function t(lang: string | undefined, key: string, params: MessageParams = {}): string {
  const code = normalizeLang(lang);
  const template = load(code)[key] ?? load('en')[key] ?? load(DEFAULT_LANG)[key] ?? key;
  return template.replace(/\{\{(\w+)(?:\|(minute|second))?\}\}/g, (_, name: string, unit: 'minute' | 'second' | undefined) => {
    const value = params[name];
    if (value instanceof Money) return formatAmount(value.value, localeOf(code));
    // `{{minutes|minute}}`: the count with its unit in the language's plural form (2 minutes, 1 minute, دقيقتان, 10 دقائق).
    if (unit && value !== undefined && Number.isFinite(Number(value))) return unitFormat(localeOf(code), unit).format(Number(value));
    return String(value ?? '');
  });
}

export const serverLanguages = LANG_CODES;
export const catalogueOf = (lang: LangCode): Catalogue => load(lang);
