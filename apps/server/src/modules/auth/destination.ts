import type { AccountTypeValue } from '@tp/contract/schemas/auth';
import { invalid } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { findArea } from './settings-repository.ts';

/** Where an account's codes go and how it is looked up: an email, or an area plus a phone number. */
export type Destination =
  | { channel: 'email'; email: string; key: string; address: string }
  | { channel: 'sms'; areaId: number; mobile: string; key: string; address: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^\d{5,15}$/;

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('email_invalid');
  return email;
}

export function normalizeMobile(raw: string): string {
  const mobile = raw.replace(/[\s()-]/g, '');
  if (!MOBILE.test(mobile)) throw invalid('mobile_invalid');
  return mobile;
}

/** Validates an account as typed (email, or phone with its area) and names where codes for it go. */
export async function destinationOf(db: DbOrTx, type: AccountTypeValue, account: string, areaId: number | undefined): Promise<Destination> {
  if (type === 'email') {
    const email = normalizeEmail(account);
    return { channel: 'email', email, key: email, address: email };
  }
  const mobile = normalizeMobile(account);
  if (!areaId) throw invalid('area_required');
  const area = await findArea(db, areaId);
  if (!area) throw invalid('area_invalid');
  const address = `${area.globalCode}${mobile}`;
  return { channel: 'sms', areaId, mobile, key: address, address };
}

/** Shown in lists of other people's accounts (invitees): enough to recognise, not to contact. */
export function maskEmail(email: string | null): string {
  if (!email) return '';
  const [local = '', domain = ''] = email.split('@');
  const keep = local.length > 2 ? 2 : 1;
  return `${local.slice(0, keep)}***@${domain}`;
}

export function maskMobile(mobile: string | null): string {
  if (!mobile) return '';
  if (mobile.length < 7) return `${mobile.slice(0, 1)}***${mobile.slice(-1)}`;
  return `${mobile.slice(0, 3)}****${mobile.slice(-2)}`;
}
