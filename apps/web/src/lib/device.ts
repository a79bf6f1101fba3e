import { useMediaQuery } from './use-media-query';

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|HarmonyOS/i;

/** Desktop is detected by user agent (spec section 2): anything that is not a mobile agent. */
export function isDesktop(userAgent: string): boolean {
  return !MOBILE_UA.test(userAgent);
}

export function isMobile(userAgent: string): boolean {
  return MOBILE_UA.test(userAgent);
}

/** The user agent's choice, decided once at start (a phone never gets the desktop frame). */
export const IS_DESKTOP: boolean = typeof navigator === 'undefined' ? false : isDesktop(navigator.userAgent);

/**
 * The narrowest viewport, in CSS px, that gets the desktop layout (WCAG 1.4.10 Reflow: no page may scroll sideways).
 * Measured in the built app (desktop user agent, signed in, narrowing 1400 -> 600 px in 20 px
 * steps): the desktop frame's top bar stops fitting and the page scrolls sideways below 829 px in
 * en (scrollWidth 829), 879 px in de and 745 px in ar, and the terminal itself needs 821 px in en
 * (871 in de); below that the market list cuts symbol names and the order panel overlaps. 1024 px
 * leaves room for the longer languages and is the quote board's table breakpoint (WIDE_SCREEN);
 * a 1280 px window keeps the desktop up to 125% zoom and gets the phone layout from 150%.
 */
export const DESKTOP_MIN_WIDTH = 1024;
export const DESKTOP_WIDTH = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;

/**
 * Whether to show the desktop layout now: a desktop user agent with a viewport at least
 * DESKTOP_MIN_WIDTH wide. Follows resizing and zoom live (matchMedia), so a narrowed desktop
 * window gets the phone layout and the desktop one again when it widens.
 */
export function useIsDesktop(): boolean {
  const wide = useMediaQuery(DESKTOP_WIDTH);
  return IS_DESKTOP && wide;
}
