/** Lets code outside React (the API client) navigate through the router once it exists. */
export type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

let bridge: NavigateFn | null = null;

export function setNavigator(navigate: NavigateFn | null): void {
  bridge = navigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (bridge) bridge(to, options);
  else if (typeof window !== 'undefined') window.location.assign(to);
}

/** The path the user is on, with its query and hash, as the login redirect wants it. */
export function currentPath(): string {
  if (typeof window === 'undefined') return '/';
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

export function loginPath(redirect: string): string {
  return `/login?redirect=${encodeURIComponent(redirect)}`;
}

/** A backslash (browsers read it as `/`, so `/\host` is another site) or a control character. */
const unsafeChar = (c: string) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

/**
 * The path to go to after login: only a path inside this app (same origin). Anything else (an
 * absolute URL, `//host`, `/\host`, a scheme such as `javascript:`) gives the home page.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || [...target].some(unsafeChar)) return fallback;
  if (typeof window === 'undefined') return target;
  try {
    const url = new URL(target, window.location.origin);
    if (url.origin !== window.location.origin) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
