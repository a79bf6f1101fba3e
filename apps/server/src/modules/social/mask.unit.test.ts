import { describe, expect, it } from 'vitest';
import { maskEmail, maskMobile, rankingName } from './mask.ts';
import { percentOf } from './service.ts';

describe('ranking names', () => {
  it('masks emails and mobiles, preferring the display name', () => {
    expect(maskEmail('john@gmail.com')).toBe('jo***@gm***.com');
    expect(maskEmail('a@b.co')).toBe('a***@b***.co');
    expect(maskEmail('trader.one@mail.example.co.uk')).toBe('tr***@ma***.uk');
    expect(maskEmail('noatsign')).toBe('no***');
    expect(maskMobile('13812345678')).toBe('138****5678');
    expect(maskMobile('98765')).toBe('9***65');
    expect(maskMobile('12')).toBe('***');
    expect(rankingName({ displayName: ' Ace ', email: 'x@y.com', mobile: null, uid: '1' })).toBe('Ace');
    expect(rankingName({ displayName: '', email: null, mobile: '61234567', uid: '1' })).toBe('612****4567');
    expect(rankingName({ displayName: null, email: null, mobile: null, uid: '12345678' })).toBe('123****5678');
  });
});

describe('ranking rates', () => {
  it('is part / whole x 100 to 2 decimals, half-even, exact', () => {
    expect(percentOf('25', '400')).toBe('6.25');
    expect(percentOf('2', '3')).toBe('66.67');
    expect(percentOf('0.125', '100')).toBe('0.12');
    expect(percentOf('0.135', '100')).toBe('0.14');
    expect(percentOf('-30', '600')).toBe('-5.00');
    expect(percentOf('0.1', '0.3')).toBe('33.33');
    expect(percentOf('5', '0')).toBe('0.00');
  });
});
