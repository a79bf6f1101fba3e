import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const localeDir = path.resolve(here, '../../locales');
const catalogue = (lang: string) =>
  Object.assign(
    {},
    ...['core', 'funding'].map(
      (m) => JSON.parse(fs.readFileSync(path.join(localeDir, m, `${lang}.json`), 'utf8')) as Record<string, string>,
    ),
  );

/** Every message key funding can answer with, found in its code and its contract schemas. */
function usedKeys(): Set<string> {
  const sources = [
    ...fs
      .readdirSync(here)
      .filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
      .map((f) => path.join(here, f)),
    path.resolve(here, '../../../../../packages/contract/src/schemas/funding.ts'),
  ];
  const keys = new Set<string>();
  for (const file of sources) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/['`](?:msg:)?(funding\.[a-z_]+|amount_[a-z]+|input_full|text_too_long|not_found)['`]/g)) keys.add(m[1]!);
  }
  for (const reason of ['required', 'format', 'decimals', 'negative', 'zero']) keys.add(`amount_${reason}`);
  for (const s of [0, 1, 2, 3]) keys.add(`funding.deposit_status_${s}`);
  for (const s of [0, 1, 2]) keys.add(`funding.withdraw_status_${s}`);
  return keys;
}

describe('funding messages', () => {
  it('has every message in English and Traditional Chinese, with the same placeholders', () => {
    const en = catalogue('en');
    const hk = catalogue('hk');
    const keys = usedKeys();
    expect(keys.size).toBeGreaterThan(30);
    for (const key of keys) {
      expect({ key, en: typeof en[key] }).toEqual({ key, en: 'string' });
      expect({ key, hk: typeof hk[key] }).toEqual({ key, hk: 'string' });
      const params = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(params(hk[key]!)).toEqual(params(en[key]!));
    }
  });
});
