/** How a trader is named in the public ranking: the chosen display name, else a masked email or mobile. */

const keep = (s: string, n: number) => Array.from(s).slice(0, n).join('');

/** 'john@gmail.com' -> 'jo***@gm***.com' */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return `${keep(email, 2)}***`;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${keep(local, 2)}***@${keep(host, 2)}***${tld}`;
}

/** '13812345678' -> '138****5678'; short numbers keep less. */
export function maskMobile(mobile: string): string {
  const digits = mobile.replace(/\s+/g, '');
  if (digits.length >= 8) return `${digits.slice(0, 3)}****${digits.slice(-4)}`;
  if (digits.length >= 4) return `${digits.slice(0, 1)}***${digits.slice(-2)}`;
  return '***';
}

export function rankingName(u: { displayName: string | null; email: string | null; mobile: string | null; uid: string }): string {
  const display = u.displayName?.trim();
  if (display) return display;
  if (u.email) return maskEmail(u.email);
  if (u.mobile) return maskMobile(u.mobile);
  return maskMobile(u.uid);
}
