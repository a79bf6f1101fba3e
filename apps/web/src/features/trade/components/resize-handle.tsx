import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A draggable separator between two panels (mouse, touch, arrow keys; Home and End for the smallest and largest). `size` is the panel's
 * size in pixels; `sign` is -1 when dragging toward the start makes the panel grow.
 */
export function ResizeHandle({
  orientation,
  size,
  min,
  max,
  sign = 1,
  onResize,
}: {
  orientation: 'vertical' | 'horizontal';
  size: number;
  min: number;
  max: number;
  sign?: 1 | -1;
  onResize: (size: number) => void;
}) {
  const { t } = useTranslation();
  const drag = useRef<{ start: number; size: number } | null>(null);
  const vertical = orientation === 'vertical';
  const clamp = (value: number) => Math.min(max, Math.max(min, value));
  const rtl = () => document.documentElement.dir === 'rtl';
  const delta = (event: React.PointerEvent) => {
    const moved = (vertical ? event.clientX : event.clientY) - drag.current!.start;
    return vertical && rtl() ? -moved : moved;
  };
  return (
    <div
      role="separator"
      tabIndex={0}
      aria-label={t('trade.resize_panel')}
      aria-orientation={orientation}
      aria-valuenow={Math.round(size)}
      aria-valuemin={min}
      aria-valuemax={max}
      onPointerDown={(event) => {
        drag.current = { start: vertical ? event.clientX : event.clientY, size };
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (drag.current) onResize(clamp(drag.current.size + sign * delta(event)));
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
      onKeyDown={(event) => {
        const forward = vertical ? (rtl() ? 'ArrowLeft' : 'ArrowRight') : 'ArrowDown';
        const backward = vertical ? (rtl() ? 'ArrowRight' : 'ArrowLeft') : 'ArrowUp';
        if (event.key === forward) onResize(clamp(size + sign * 16));
        else if (event.key === backward) onResize(clamp(size - sign * 16));
        else if (event.key === 'Home') onResize(min);
        else if (event.key === 'End') onResize(max);
        else return;
        event.preventDefault();
      }}
      className={`shrink-0 bg-border/60 hover:bg-accent/60 focus-visible:bg-accent ${vertical ? 'w-1 cursor-col-resize' : 'h-1 cursor-row-resize'}`}
    />
  );
}
