import { COMPANY_COOKIE_MAX_AGE_S } from '@tp/contract/constants';
import type { OutputOf } from '@tp/contract/endpoint';
import type { companyStatus } from '@tp/contract/endpoints/content';
import { call } from './api-client';
import { readQueryParam } from './query-params';

/**
 * The contract's COMPANY_COOKIE, spelled out here so the start-up chunk does not pull in the zod
 * schemas (company.test.ts checks that both agree).
 */
export const COMPANY_COOKIE_NAME = 'company_id';
/** The query parameter that chooses a company when the app is opened from a company's link. */
export const COMPANY_QUERY_PARAM = 'company_id';

export type CompanyStatus = OutputOf<typeof companyStatus>;

/** The company id remembered in the cookie, if any. */
export function readCompanyCookie(cookie: string): number | null {
  const match = new RegExp(`(?:^|;\\s*)${COMPANY_COOKIE_NAME}=(\\d{1,9})(?:;|$)`).exec(cookie);
  return match ? Number(match[1]) : null;
}

/** The cookie that remembers the chosen company for three years (spec section 9). */
export function companyCookie(id: number, secure: boolean): string {
  return `${COMPANY_COOKIE_NAME}=${id}; Max-Age=${COMPANY_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function rememberCompany(id: number): void {
  if (!Number.isInteger(id) || id <= 0) return;
  document.cookie = companyCookie(id, window.location.protocol === 'https:');
}

/** A company id given in the address (`?company_id=3`, also after the hash), if valid. */
export function companyIdFromUrl(search: string, hash: string): number | null {
  const raw = readQueryParam(COMPANY_QUERY_PARAM, search, hash);
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** Where the main-mode check sends the app: only a nonzero status with an http(s) address. */
export function lossRedirect(status: CompanyStatus | null | undefined, origin: string): string | null {
  if (!status || status.status === 0 || !status.loss_url) return null;
  try {
    const url = new URL(status.loss_url, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The main-mode check: a background call at start, silent on failure. The endpoint is imported when
 * called, so the start-up chunk does not carry the content module's schemas.
 */
export async function getCompanyStatus(): Promise<CompanyStatus> {
  const { companyStatus: endpoint } = await import('@tp/contract/endpoints/content');
  return call(endpoint, {}, { initial: true, showErrorMessage: false });
}

/**
 * Called once at app start: remembers a company chosen through the address, then runs the
 * main-mode check and leaves for loss_url when the company is not in normal mode.
 */
export async function startCompanyCheck(): Promise<void> {
  if (typeof window === 'undefined') return;
  const chosen = companyIdFromUrl(window.location.search, window.location.hash);
  if (chosen !== null) rememberCompany(chosen);
  let status: CompanyStatus | null;
  try {
    status = await getCompanyStatus();
  } catch {
    return; // The app stays usable when the check cannot be made.
  }
  const target = lossRedirect(status, window.location.origin);
  if (target && target !== window.location.href) window.location.replace(target);
}
