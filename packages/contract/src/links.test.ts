import { describe, expect, it } from 'vitest';
import { linkScheme, openableHref } from './links.ts';
import { SettingValueRules } from './schemas/content.ts';

describe('stored links (issue 17, finding 4)', () => {
  it.each([
    ['https://help.example/chat?x=1', 'https'],
    ['http://help.example', 'http'],
    ['mailto:support@example.com', 'mailto'],
    ['support@example.com', 'mailto'],
    ['/mine/chat', 'relative'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['java\tscript:alert(1)', null],
    [' javascript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['vbscript:msgbox(1)', null],
    ['//evil.example', null],
    ['/\\evil.example', null],
    ['https:evil', 'https'],
    ['https://', null],
    ['mailto:', null],
    ['ftp://files.example', null],
    ['x\u0000', null],
  ])('%j is %s', (raw, scheme) => {
    expect(linkScheme(raw)).toBe(scheme);
  });

  it('opens https, mailto and relative links; http only where allowed; never anything else', () => {
    expect(openableHref('https://help.example')).toBe('https://help.example');
    expect(openableHref('support@example.com')).toBe('mailto:support@example.com');
    expect(openableHref('http://help.example')).toBeNull();
    expect(openableHref('http://help.example', { allowHttp: true })).toBe('http://help.example');
    expect(openableHref('javascript:alert(1)', { allowHttp: true })).toBeNull();
  });

  it('refuses a javascript: service link', () => {
    expect(SettingValueRules.service_link.safeParse('javascript:alert(document.cookie)').success).toBe(false);
    expect(SettingValueRules.service_link.safeParse('https://help.example').success).toBe(true);
  });
});
