import { useEffect, useRef } from 'react';

/**
 * Flashes a price green or red when it moves: the `flash-up` / `flash-down` class (a CSS animation in
 * index.css) is set on the node directly, so the tick costs no extra render. Each move switches
 * `data-flash-phase` between two copies of the animation, which restarts it without reading the
 * layout (a forced reflow per price per tick was the home screen's biggest main-thread cost).
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

/** Starts the flash animation on a node again: the other phase's animation name restarts it. */
export function flash(node: HTMLElement, direction: 'up' | 'down'): void {
  node.classList.remove(direction === 'up' ? 'flash-down' : 'flash-up');
  node.classList.add(`flash-${direction}`);
  node.dataset.flash = direction;
  node.dataset.flashPhase = node.dataset.flashPhase === 'a' ? 'b' : 'a';
}
