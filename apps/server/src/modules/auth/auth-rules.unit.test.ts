import { describe, expect, it } from 'vitest';
import { maskEmail, maskMobile, normalizeEmail, normalizeMobile } from './destination.ts';
import { passwordProblem } from './password-policy.ts';
import { CAPTCHA_ALPHABET, randomCaptchaText } from './captcha-image.ts';

describe('password policy', () => {
  it('wants 8 to 128 characters', () => {
    expect(passwordProblem('Ab3$xyz')).toBe('password_length');
    expect(passwordProblem('Ab3$xyzQ')).toBeNull();
    expect(passwordProblem('k'.repeat(127) + 'Q')).toBeNull();
    expect(passwordProblem('k'.repeat(129))).toBe('password_length');
  });

  it('refuses common passwords whatever their case', () => {
    for (const pw of ['password', 'PASSWORD1', 'Qwerty123', 'iloveyou', '12345678', 'Sunshine1', 'baseball'])
      expect(passwordProblem(pw), pw).toBe('password_common');
    expect(passwordProblem('correct-horse-battery')).toBeNull();
  });
});

describe('account destinations', () => {
  it('normalizes emails and phone numbers, refusing malformed ones', () => {
    expect(normalizeEmail('  Trader@Example.COM ')).toBe('trader@example.com');
    expect(() => normalizeEmail('trader@')).toThrow();
    expect(() => normalizeEmail('a b@example.com')).toThrow();
    expect(normalizeMobile('9123 4567')).toBe('91234567');
    expect(normalizeMobile('(02) 912-345')).toBe('02912345');
    expect(() => normalizeMobile('12ab56')).toThrow();
    expect(() => normalizeMobile('1234')).toThrow();
  });

  it('masks invitees', () => {
    expect(maskEmail('trader@example.com')).toBe('tr***@example.com');
    expect(maskEmail('ab@example.com')).toBe('a***@example.com');
    expect(maskEmail(null)).toBe('');
    expect(maskMobile('91234567')).toBe('912****67');
    expect(maskMobile('12345')).toBe('1***5');
  });
});

describe('captcha text', () => {
  it('has 4 or 5 characters none of which can be confused', () => {
    for (let i = 0; i < 200; i++) {
      const text = randomCaptchaText();
      expect(text.length === 4 || text.length === 5).toBe(true);
      for (const ch of text) expect(CAPTCHA_ALPHABET).toContain(ch);
    }
    expect(CAPTCHA_ALPHABET).not.toMatch(/[IO01]/);
  });
});
