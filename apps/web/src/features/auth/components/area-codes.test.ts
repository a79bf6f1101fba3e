import { describe, expect, it } from 'vitest';
import { areaOptions, defaultArea, dialCode } from './area-codes';

const areas = [
  { id: 1, code: 'AF', global_code: '+93', name: 'Afghanistan' },
  { id: 2, code: 'AE', global_code: '+971', name: 'United Arab Emirates' },
  { id: 3, code: 'GB', global_code: '+44', name: 'United Kingdom' },
  { id: 4, code: 'HK', global_code: '+852', name: 'Hong Kong' },
  { id: 5, code: 'US', global_code: '+1', name: 'United States' },
  { id: 6, code: 'CA', global_code: '+1', name: 'Canada' },
];

describe('phone area codes', () => {
  it('shows one "+" whether the stored code has one or not', () => {
    expect(dialCode('+93')).toBe('+93');
    expect(dialCode('93')).toBe('+93');
    expect(dialCode('++93')).toBe('+93');
  });

  it("starts at the browser's country of the UI language, else the language's country, else the first", () => {
    expect(defaultArea(areas, 'hk', ['en-US'])?.code).toBe('HK');
    expect(defaultArea(areas, 'ar', [])?.code).toBe('AE');
    expect(defaultArea(areas, 'en', [])?.code).toBe('US');
    expect(defaultArea(areas, 'en', ['en-GB', 'en'])?.code).toBe('GB');
    expect(defaultArea(areas, 'en', ['en-CA'])?.code).toBe('CA');
    expect(defaultArea(areas, 'hk', ['zh-HK'])?.code).toBe('HK');
    expect(defaultArea(areas, 'de', ['de-DE'])?.code).toBe('AF');
    expect(defaultArea([], 'en', [])).toBeUndefined();
  });

  it('names countries in the UI language, sorted in its order, the code isolated left-to-right', () => {
    const ar = areaOptions(areas, 'ar');
    expect(ar.find((o) => o.area.code === 'AE')!.label).toBe('\u2066+971\u2069 الإمارات العربية المتحدة');
    const en = areaOptions(areas, 'en').map((o) => o.name);
    expect(en).toEqual([...en].sort((a, b) => a.localeCompare(b, 'en')));
    expect(areaOptions(areas, 'hk').find((o) => o.area.code === 'AF')!.name).toBe('阿富汗');
  });
});
