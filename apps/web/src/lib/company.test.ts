import { COMPANY_COOKIE_MAX_AGE_S } from '@tp/contract/constants';
import { COMPANY_COOKIE } from '@tp/contract/schemas/content';
import { describe, expect, it } from 'vitest';
import { COMPANY_COOKIE_NAME, companyCookie, companyIdFromUrl, lossRedirect, readCompanyCookie } from './company';

describe('company choice cookie', () => {
  it('uses the contract cookie name and lasts three years', () => {
    expect(COMPANY_COOKIE_NAME).toBe(COMPANY_COOKIE);
    expect(COMPANY_COOKIE_MAX_AGE_S).toBe(94_608_000);
    expect(companyCookie(7, false)).toBe('company_id=7; Max-Age=94608000; Path=/; SameSite=Lax');
    expect(companyCookie(7, true)).toBe('company_id=7; Max-Age=94608000; Path=/; SameSite=Lax; Secure');
  });

  it('reads the remembered company among other cookies', () => {
    expect(readCompanyCookie('a=1; company_id=12; b=2')).toBe(12);
    expect(readCompanyCookie('company_id=3')).toBe(3);
    expect(readCompanyCookie('my_company_id=3')).toBeNull();
    expect(readCompanyCookie('')).toBeNull();
  });

  it('takes a company id from the query or after the hash, ignoring bad values', () => {
    expect(companyIdFromUrl('?company_id=4', '')).toBe(4);
    expect(companyIdFromUrl('', '#/news?company_id=5')).toBe(5);
    expect(companyIdFromUrl('?company_id=abc', '')).toBeNull();
    expect(companyIdFromUrl('?company_id=0', '')).toBeNull();
    expect(companyIdFromUrl('', '')).toBeNull();
  });
});

describe('main-mode check', () => {
  const origin = 'https://app.example';
  it('stays on a status of 0', () => {
    expect(lossRedirect({ status: 0, loss_url: 'https://elsewhere.example/' }, origin)).toBeNull();
    expect(lossRedirect(null, origin)).toBeNull();
  });

  it('leaves for loss_url on a nonzero status', () => {
    expect(lossRedirect({ status: 2, loss_url: 'https://elsewhere.example/' }, origin)).toBe('https://elsewhere.example/');
    expect(lossRedirect({ status: 1, loss_url: '/closed' }, origin)).toBe('https://app.example/closed');
  });

  it('never follows a script address or an empty one', () => {
    expect(lossRedirect({ status: 1, loss_url: 'javascript:alert(1)' }, origin)).toBeNull();
    expect(lossRedirect({ status: 1, loss_url: '' }, origin)).toBeNull();
  });
});
