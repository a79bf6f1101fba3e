/**
 * The one rule for links the platform stores and opens (settings, company, news):
 * https, http (only where staff allow it: setting allow_http_links), mailto and relative paths.
 * Anything else (javascript:, data:, vbscript:, //host, ...) is never stored and never opened.
 */
import { hasControlChars } from './text.ts';

export type LinkScheme = 'https' | 'http' | 'mailto' | 'relative';

/** A bare email address (a support contact) counts as a mailto: link. */
const BARE_EMAIL = /^[^@/:?#]+@[^@/:?#]+\.[^@/:?#]+$/;

/** The scheme of a link a page may open, or null when it may not be opened at all. */
export function linkScheme(raw: string): LinkScheme | null {
  // Browsers drop tabs and line breaks inside URLs and strip other controls and spaces around them.
  if (!raw || /[\s\\]/.test(raw) || hasControlChars(raw)) return null;
  if (raw.startsWith('/')) return raw.startsWith('//') ? null : 'relative';
  if (BARE_EMAIL.test(raw)) return 'mailto';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return url.pathname.includes('@') ? 'mailto' : null;
  if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname) return url.protocol === 'https:' ? 'https' : 'http';
  return null;
}

/** The address a page may navigate to for a stored link, or null (the web app checks again before it navigates). */
export function openableHref(raw: string, opts: { allowHttp?: boolean } = {}): string | null {
  const scheme = linkScheme(raw);
  if (scheme === null || (scheme === 'http' && !opts.allowHttp)) return null;
  return scheme === 'mailto' && BARE_EMAIL.test(raw) ? `mailto:${raw}` : raw;
}
