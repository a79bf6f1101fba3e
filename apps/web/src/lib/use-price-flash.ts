import { useEffect, useRef } from 'react';

/**
 * Flashes a price green or red when it moves: the `flash-up` / `flash-down` class (a CSS animation in
 * index.css) is restarted on the node directly, so the tick costs no extra render.
 */
export function usePriceFlash<T extends HTMLElement>(price: string | undefined) {
  const ref = useRef<T>(null);
  const previous = useRef(price);
  useEffect(() => {
    const before = previous.current;
    previous.current = price;
    const node = ref.current;
    if (!node || !before || !price || before === price) return;
    const up = Number(price) > Number(before);
    node.classList.remove('flash-up', 'flash-down');
    // Reading the layout restarts the animation when the same class comes back.
    void node.offsetWidth;
    node.classList.add(up ? 'flash-up' : 'flash-down');
    node.dataset.flash = up ? 'up' : 'down';
  }, [price]);
  return ref;
}
