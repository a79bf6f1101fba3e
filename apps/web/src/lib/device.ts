const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|HarmonyOS/i;

/** Desktop is detected by user agent (spec section 2): anything that is not a mobile agent. */
export function isDesktop(userAgent: string): boolean {
  return !MOBILE_UA.test(userAgent);
}

export function isMobile(userAgent: string): boolean {
  return MOBILE_UA.test(userAgent);
}

/** Decided once at start: the layout does not switch while the page is open. */
export const IS_DESKTOP: boolean = typeof navigator === 'undefined' ? false : isDesktop(navigator.userAgent);
