import { describe, expect, it } from 'vitest';
import { resolveLanguage } from './i18n';

describe('resolveLanguage', () => {
  it('uses the stored choice first', () => {
    expect(resolveLanguage('de', ['fr-FR'])).toBe('de');
    expect(resolveLanguage('spa', [])).toBe('spa');
  });

  it('maps tw to hk', () => {
    expect(resolveLanguage('tw', ['en-US'])).toBe('hk');
    expect(resolveLanguage('TW', [])).toBe('hk');
  });

  it('ignores an unknown stored code and falls back to the browser language', () => {
    expect(resolveLanguage('xx', ['fr-FR'])).toBe('fr');
  });

  it('maps browser tags to our codes', () => {
    expect(resolveLanguage(null, ['ja-JP'])).toBe('jp');
    expect(resolveLanguage(null, ['es-419'])).toBe('spa');
    expect(resolveLanguage(null, ['ms-MY'])).toBe('my');
    expect(resolveLanguage(null, ['zh-TW'])).toBe('hk');
    expect(resolveLanguage(null, ['zh-CN'])).toBe('hk');
    expect(resolveLanguage(null, ['ko'])).toBe('kr');
  });

  it('takes the first supported browser language', () => {
    expect(resolveLanguage(null, ['xx-YY', 'sv-SE', 'vi-VN', 'en'])).toBe('vn');
  });

  it('defaults to hk when nothing matches', () => {
    expect(resolveLanguage(null, [])).toBe('hk');
    expect(resolveLanguage('xx', ['sv-SE'])).toBe('hk');
    expect(resolveLanguage(undefined, ['nl-NL'])).toBe('hk');
  });
});
