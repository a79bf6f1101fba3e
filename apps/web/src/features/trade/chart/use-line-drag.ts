import type { IChartApi } from 'lightweight-charts';
import { type RefObject, useEffect, useRef } from 'react';
import type { OrderLine, OrderLines } from './order-lines';

export interface DragTarget {
  chart: IChartApi;
  lines: OrderLines;
}

/**
 * Lets the trader drag a TP or SL line: while pressed the chart does not pan, the line follows the
 * pointer, and on release `onDrop` gets the line and the price it was dropped at.
 */
export function useLineDrag(container: RefObject<HTMLDivElement | null>, target: () => DragTarget | null, onDrop: (line: OrderLine, price: number) => void) {
  const drop = useRef(onDrop);
  drop.current = onDrop;
  const getTarget = useRef(target);
  getTarget.current = target;

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let dragging: { line: OrderLine; target: DragTarget; start: number; moved: boolean } | null = null;
    const yOf = (e: PointerEvent) => e.clientY - el.getBoundingClientRect().top;

    const down = (e: PointerEvent) => {
      const t = getTarget.current();
      const line = t?.lines.draggableAt(yOf(e));
      if (!t || !line || e.button !== 0) return;
      e.stopPropagation();
      e.preventDefault();
      t.chart.applyOptions({ handleScroll: false, handleScale: false });
      // The scale holds still while a line moves, so the pointer and the line stay together.
      t.chart.priceScale('right').applyOptions({ autoScale: false });
      el.setPointerCapture?.(e.pointerId);
      dragging = { line, target: t, start: line.line.options().price, moved: false };
    };
    const move = (e: PointerEvent) => {
      const y = yOf(e);
      if (!dragging) {
        el.style.cursor = getTarget.current()?.lines.draggableAt(y) ? 'ns-resize' : '';
        return;
      }
      e.stopPropagation();
      const price = dragging.target.lines.priceAt(y);
      if (price === null) return;
      dragging.moved = true;
      dragging.line.line.applyOptions({ price });
    };
    const up = (e: PointerEvent) => {
      if (!dragging) return;
      const { line, target: t, moved, start } = dragging;
      dragging = null;
      el.releasePointerCapture?.(e.pointerId);
      t.chart.applyOptions({ handleScroll: true, handleScale: true });
      t.chart.priceScale('right').applyOptions({ autoScale: true });
      const price = line.line.options().price;
      if (moved && price !== start) drop.current(line, price);
    };
    el.addEventListener('pointerdown', down, true);
    el.addEventListener('pointermove', move, true);
    el.addEventListener('pointerup', up, true);
    el.addEventListener('pointercancel', up, true);
    return () => {
      el.removeEventListener('pointerdown', down, true);
      el.removeEventListener('pointermove', move, true);
      el.removeEventListener('pointerup', up, true);
      el.removeEventListener('pointercancel', up, true);
    };
  }, [container]);
}
