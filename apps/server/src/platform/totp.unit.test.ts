import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { acceptTotp, newTotpSecret, totpCode, totpStep } from './totp.ts';

describe('TOTP (RFC 6238)', () => {
  // Appendix B: the SHA-1 seed "12345678901234567890", 8 digits, 30 s steps.
  const rfcSecret = Secret.fromLatin1('12345678901234567890');
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(totpCode(rfcSecret, seconds * 1000, 8)).toBe(code);
  });

  it('accepts the current code and its neighbours once each, never a step at or before the last accepted', () => {
    const secret = newTotpSecret();
    const at = 1_700_000_000_000;
    const now = totpStep(at);
    expect(acceptTotp(secret, totpCode(secret, at), null, at)).toBe(now);
    expect(acceptTotp(secret, totpCode(secret, at), now, at)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, at - 30_000), now, at)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, at + 30_000), now, at)).toBe(now + 1);
    expect(acceptTotp(secret, totpCode(secret, at - 30_000), null, at)).toBe(now - 1);
    expect(acceptTotp(secret, totpCode(secret, at - 60_000), null, at)).toBeNull();
    expect(acceptTotp(secret, 'abcdef', null, at)).toBeNull();
  });
});
