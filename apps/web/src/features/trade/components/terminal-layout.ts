import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The sizes of the desktop terminal's panels, in CSS pixels. */
export interface TerminalLayout {
  /** Width of the symbol list (at the start side). */
  listWidth: number;
  /** Width of the order form (at the end side). */
  formWidth: number;
  /** Height of the positions panel (at the bottom). */
  positionsHeight: number;
}

export const DEFAULT_LAYOUT: TerminalLayout = { listWidth: 260, formWidth: 300, positionsHeight: 300 };

/** What each panel may be, whatever the window; the window may lower the maximum further. */
export const LIMITS = {
  list: { min: 200, max: 480 },
  form: { min: 260, max: 480 },
  positions: { min: 120, max: 720 },
  /** The chart keeps at least this much room beside and above the panels. */
  chartWidth: 360,
  chartHeight: 240,
} as const;

export interface PanelBounds {
  list: { min: number; max: number };
  form: { min: number; max: number };
  positions: { min: number; max: number };
}

const clamp = (value: number, min: number, max: number) => Math.round(Math.min(max, Math.max(min, value)));

/**
 * The bounds of each panel in a terminal of `width` x `height` pixels: the chart keeps at least
 * LIMITS.chartWidth beside the two side panels and LIMITS.chartHeight above the positions, given the
 * other panel's current size; a bound never goes below the panel's minimum.
 */
export function panelBounds(layout: TerminalLayout, width: number, height: number): PanelBounds {
  const room = (total: number, others: number, min: number, max: number) => ({ min, max: Math.max(min, Math.min(max, total - others)) });
  const formNow = clamp(layout.formWidth, LIMITS.form.min, LIMITS.form.max);
  const listNow = clamp(layout.listWidth, LIMITS.list.min, LIMITS.list.max);
  return {
    list: room(width, LIMITS.chartWidth + formNow, LIMITS.list.min, LIMITS.list.max),
    form: room(width, LIMITS.chartWidth + listNow, LIMITS.form.min, LIMITS.form.max),
    positions: room(height, LIMITS.chartHeight, LIMITS.positions.min, LIMITS.positions.max),
  };
}

/**
 * The sizes to draw in a terminal of `width` x `height` pixels: the remembered ones, each kept within
 * its limits, then shrunk (list first, then form) so that the chart keeps its room; the remembered
 * sizes are not changed, so a larger window gets them back.
 */
export function fitLayout(layout: TerminalLayout, width: number, height: number): TerminalLayout {
  const valid = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  let list = clamp(valid(layout.listWidth, DEFAULT_LAYOUT.listWidth), LIMITS.list.min, LIMITS.list.max);
  let form = clamp(valid(layout.formWidth, DEFAULT_LAYOUT.formWidth), LIMITS.form.min, LIMITS.form.max);
  const over = list + form + LIMITS.chartWidth - width;
  if (over > 0) {
    const fromList = Math.min(over, list - LIMITS.list.min);
    list -= fromList;
    form -= Math.min(over - fromList, form - LIMITS.form.min);
  }
  const positions = clamp(
    valid(layout.positionsHeight, DEFAULT_LAYOUT.positionsHeight),
    LIMITS.positions.min,
    Math.max(LIMITS.positions.min, Math.min(LIMITS.positions.max, height - LIMITS.chartHeight)),
  );
  return { listWidth: list, formWidth: form, positionsHeight: positions };
}

interface TerminalLayoutState extends TerminalLayout {
  set: (next: Partial<TerminalLayout>) => void;
  reset: () => void;
}

/** The panel sizes the trader chose, kept in this browser across reloads. */
export const useTerminalLayoutStore = create<TerminalLayoutState>()(
  persist(
    (set) => ({
      ...DEFAULT_LAYOUT,
      set: (next) => set(next),
      reset: () => set(DEFAULT_LAYOUT),
    }),
    {
      name: 'terminal-layout',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ listWidth, formWidth, positionsHeight }) => ({ listWidth, formWidth, positionsHeight }),
    },
  ),
);

/** The size of an element, followed as it changes (ResizeObserver); 0 x 0 until it is measured. */
export function useElementSize(element: HTMLElement | null): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      setSize((current) =>
        current.width === Math.round(rect.width) && current.height === Math.round(rect.height)
          ? current
          : { width: Math.round(rect.width), height: Math.round(rect.height) },
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}
