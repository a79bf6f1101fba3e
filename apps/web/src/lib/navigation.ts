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
