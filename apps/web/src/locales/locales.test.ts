import { LANG_CODES } from '@tp/contract/languages';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

const shellFiles = import.meta.glob<Tree>('./*.json', { eager: true, import: 'default' });
const featureFiles = import.meta.glob<Tree>('../features/*/locales/*.json', { eager: true, import: 'default' });
const byLang = (files: Record<string, Tree>) =>
  Object.fromEntries(Object.entries(files).map(([path, tree]) => [/([^/]+)\.json$/.exec(path)![1]!, tree]));
const locales = byLang(shellFiles);
/** Each feature's own folder of translations, checked like the shell's. */
const features = Object.entries(
  Object.entries(featureFiles).reduce<Record<string, Record<string, Tree>>>((acc, [path, tree]) => {
    const feature = /features\/([^/]+)\/locales/.exec(path)![1]!;
    (acc[feature] ??= {})[path] = tree;
    return acc;
  }, {}),
).map(([feature, files]) => [feature, byLang(files)] as const);

/** Values that stay the same in every language: brand and product names, codes and units. */
const SAME_AS_ENGLISH = new Set([
  'TradePlatform',
  'OK',
  'USD',
  'USDT',
  'SWIFT',
  'UID',
  'ID',
  'TOTP',
  'Email',
  'E-mail',
  'K',
  'BTC',
  'ETH',
  'MACD (12, 26, 9)',
  'TP',
  'SL',
]);
/** Only placeholders joined by punctuation: nothing to translate. */
const onlyPlaceholders = (value: string) => /^(\s*\{\{\s*\w+\s*\}\}\s*[·,:/|–-]?)+\s*$/.test(value);
const sameAsEnglish = (value: string) => SAME_AS_ENGLISH.has(value) || /^[\d\s.,:%/()+\-–xX×{}]*$/.test(value) || onlyPlaceholders(value);

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = flatten(locales.en!);
const others = LANG_CODES.filter((code) => code !== 'en');

describe('locale files', () => {
  it('exist for exactly the 18 language codes', () => {
    expect(Object.keys(locales).sort()).toEqual([...LANG_CODES].sort());
  });

  it('English has every client message of the spec', () => {
    for (const key of [
      'only_real_account',
      'leverage_not_configured',
      'no_mult',
      'password_inconsistency',
      'input_full',
      'bind_payment_first',
      'no_payment_channel',
      'no_data',
      'no_more',
      'copy_success',
      'logout_success',
      'order_confirmed',
      'confirm_deletion',
    ]) {
      expect(english.get(`messages.${key}`), key).toBeTruthy();
    }
  });

  it.each(others)('%s has exactly the keys of en.json', (code) => {
    const keys = [...flatten(locales[code]!).keys()].sort();
    expect(keys).toEqual([...english.keys()].sort());
  });

  it.each(others)('%s translates every value and keeps the placeholders', (code) => {
    const strings = flatten(locales[code]!);
    for (const [key, source] of english) {
      const value = strings.get(key) ?? '';
      expect(value.trim(), `${code}:${key} is empty`).not.toBe('');
      if (!sameAsEnglish(value)) expect(value, `${code}:${key} is untranslated`).not.toBe(source);
      expect(placeholders(value), `${code}:${key} placeholders`).toEqual(placeholders(source));
    }
  });
});

describe.each(features)('feature %s translations', (_feature, files) => {
  const source = flatten(files.en ?? {});
  it('exist for exactly the 18 language codes', () => {
    expect(Object.keys(files).sort()).toEqual([...LANG_CODES].sort());
  });
  it.each(others)('%s has exactly the keys of en.json, each translated with its placeholders', (code) => {
    const strings = flatten(files[code] ?? {});
    expect([...strings.keys()].sort()).toEqual([...source.keys()].sort());
    for (const [key, text] of source) {
      const value = strings.get(key) ?? '';
      expect(value.trim(), `${code}:${key} is empty`).not.toBe('');
      if (!sameAsEnglish(value)) expect(value, `${code}:${key} is untranslated`).not.toBe(text);
      expect(placeholders(value), `${code}:${key} placeholders`).toEqual(placeholders(text));
    }
  });
});
