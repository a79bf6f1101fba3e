import fs from 'node:fs';
import path from 'node:path';
import { LANG_CODES } from '@tp/contract/languages';
import { describe, expect, it } from 'vitest';

/** Server messages (msg of every answer) exist in all 18 languages, translated, placeholders kept. */
const dir = import.meta.dirname;
const modules = fs
  .readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const read = (mod: string, lang: string): Record<string, string> => {
  const file = path.join(dir, mod, `${lang}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
};
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)(?:\|\w+)?\s*\}\}/g)].map((m) => m[1]).sort();
/** Values that may read the same as English: codes, units and brand names. */
const sameAsEnglish = (value: string) => /^[\s\d.,:%/()+\-–{}A-Z_]*$/.test(value) || ['OK', 'USD', 'USDT', 'SWIFT', 'TOTP'].includes(value);

describe.each(modules)('server messages of %s', (mod) => {
  const en = read(mod, 'en');
  it.each(LANG_CODES.filter((l) => l !== 'en'))('%s has every key of en.json, translated', (lang) => {
    const other = read(mod, lang);
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const [key, source] of Object.entries(en)) {
      const value = other[key] ?? '';
      expect(value.trim(), `${mod}/${lang}:${key} empty`).not.toBe('');
      if (!sameAsEnglish(value)) expect(value, `${mod}/${lang}:${key} untranslated`).not.toBe(source);
      expect(placeholders(value), `${mod}/${lang}:${key} placeholders`).toEqual(placeholders(source));
    }
  });
});
