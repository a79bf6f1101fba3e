import { describe, expect, it } from 'vitest';
import { money, t } from './i18n.ts';

describe('server messages', () => {
  it('write amounts of money as the web app does: 2 decimals, grouped, in the message language, Latin digits', () => {
    const params = { required: money('132926.5'), available: money('7482.004999') };
    expect(t('en', 'trading.insufficient_margin', params)).toBe(
      'Insufficient available margin: this order needs 132,926.50 USD, 7,482.00 USD is available',
    );
    expect(t('de', 'trading.insufficient_margin', params)).toContain('132.926,50');
    expect(t('fr', 'trading.insufficient_margin', params)).toMatch(/132\s926,50/);
    const arabic = t('ar', 'trading.insufficient_margin', params);
    expect(arabic).toMatch(/132.926.50/);
    expect(arabic).not.toMatch(/[٠-٩]/);
  });

  it('writes minutes and seconds in the plural form of the language', () => {
    expect(t('en', 'login_throttled', { minutes: 1 })).toBe('Too many failed attempts. Please try again in 1 minute.');
    expect(t('en', 'login_throttled', { minutes: 15 })).toBe('Too many failed attempts. Please try again in 15 minutes.');
    expect(t('ar', 'login_throttled', { minutes: 10 })).toContain('10 دقائق');
    expect(t('ar', 'login_throttled', { minutes: 2 })).toContain('دقيقتان');
    expect(t('ar', 'login_throttled', { minutes: 15 })).toContain('15 دقيقة');
    expect(t('de', 'login_wait', { seconds: 1 })).toContain('1 Sekunde ');
    // Languages without plural forms keep their own word order.
    expect(t('jp', 'login_throttled', { minutes: 10 })).toContain('10分後');
  });

  it('leaves other parameters as given', () => {
    expect(t('en', 'trading.quantity_below_min', { min: '0.01' })).toBe('The minimum is 0.01 lots');
  });
});
