import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 30 s steps, 6 digits. */
const PERIOD_S = 30;
const DIGITS = 6;

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secret: string | Secret, digits = DIGITS, meta: { issuer?: string; label?: string } = {}) =>
  new TOTP({ secret: typeof secret === 'string' ? Secret.fromBase32(secret) : secret, algorithm: 'SHA1', digits, period: PERIOD_S, ...meta });

/** The code of a moment (now by default). */
export const totpCode = (secret: string | Secret, at = Date.now(), digits = DIGITS): string => totpOf(secret, digits).generate({ timestamp: at });

/** The otpauth:// address an authenticator app reads from the QR code. */
export const totpUri = (secret: string, issuer: string, account: string): string => totpOf(secret, DIGITS, { issuer, label: account }).toString();

/** The time step a moment falls in. */
export const totpStep = (at = Date.now()): number => Math.floor(at / 1000 / PERIOD_S);

/**
 * The time step of a valid code (the current one or a neighbour, for clock drift), or null. A step
 * at or before `lastStep` is refused, so each code signs in once (RFC 6238 section 5.2).
 */
export function acceptTotp(secret: string, code: string, lastStep: number | null, at = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: at, window: 1 });
  if (delta === null) return null;
  const step = totpStep(at) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
