import { useEffect, useRef } from 'react';

/** How long a price stays washed green or red after it moved. */
export const FLASH_MS = 500;

/**
 * Flashes a price green or red when it moves: the `flash-up` / `flash-down` class (index.css) is set
 * on the node directly, so the tick costs no extra render, and taken off again after FLASH_MS.
 * The wash does not fade: a running CSS animation restyles its node on the main thread every frame,
 * and with every visible price ticking several times a second that was most of the home screen's
 * style work (a forced reflow to restart the animation, before that, was the biggest cost of all).
 */
export function usePriceFlash<T extends HTMLElement>(price: string | undefined) {
  const ref = useRef<T>(null);
  const previous = useRef(price);
  useEffect(() => {
    const before = previous.current;
    previous.current = price;
    const node = ref.current;
    if (!node || !before || !price || before === price) return;
    flash(node, Number(price) > Number(before) ? 'up' : 'down');
  }, [price]);
  return ref;
}

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/** Washes a node green (up) or red (down) for FLASH_MS; a new move restarts the wait. */
export function flash(node: HTMLElement, direction: 'up' | 'down'): void {
  node.classList.remove(direction === 'up' ? 'flash-down' : 'flash-up');
  node.classList.add(`flash-${direction}`);
  node.dataset.flash = direction;
  clearTimeout(timers.get(node));
  timers.set(
    node,
    setTimeout(() => node.classList.remove('flash-up', 'flash-down'), FLASH_MS),
  );
}
