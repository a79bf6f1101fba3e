import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, fitLayout, LIMITS, panelBounds } from './terminal-layout';

describe('fitLayout', () => {
  it('keeps the remembered sizes when the window has room for them and the chart', () => {
    expect(fitLayout({ listWidth: 320, formWidth: 340, positionsHeight: 400 }, 1920, 1020)).toEqual({
      listWidth: 320,
      formWidth: 340,
      positionsHeight: 400,
    });
  });

  it('keeps every size within its limits, and falls back to the default for a broken stored value', () => {
    expect(fitLayout({ listWidth: 10, formWidth: 9999, positionsHeight: 5 }, 3000, 2000)).toEqual({
      listWidth: LIMITS.list.min,
      formWidth: LIMITS.form.max,
      positionsHeight: LIMITS.positions.min,
    });
    expect(fitLayout({ listWidth: Number.NaN, formWidth: 'x' as unknown as number, positionsHeight: 300 }, 1920, 1020)).toEqual(
      DEFAULT_LAYOUT,
    );
  });

  it('shrinks the list, then the form, so the chart keeps its width in a narrow window', () => {
    // 1024 - 360 (chart) leaves 664 for list 400 + form 400: the list gives 136 back.
    expect(fitLayout({ listWidth: 400, formWidth: 400, positionsHeight: 300 }, 1024, 800)).toMatchObject({
      listWidth: 264,
      formWidth: 400,
    });
    // 800 - 360 leaves 440: the list goes down to its minimum, the form gives the rest.
    expect(fitLayout({ listWidth: 400, formWidth: 400, positionsHeight: 300 }, 800, 800)).toMatchObject({ listWidth: 200, formWidth: 260 });
  });

  it('keeps the chart its height above the positions panel', () => {
    expect(fitLayout({ ...DEFAULT_LAYOUT, positionsHeight: 700 }, 1440, 843).positionsHeight).toBe(843 - LIMITS.chartHeight);
    expect(fitLayout({ ...DEFAULT_LAYOUT, positionsHeight: 700 }, 1440, 300).positionsHeight).toBe(LIMITS.positions.min);
  });
});

describe('panelBounds', () => {
  it('lets a panel grow only as far as the chart and the other panel allow', () => {
    const bounds = panelBounds({ listWidth: 260, formWidth: 300, positionsHeight: 300 }, 1000, 843);
    expect(bounds.list).toEqual({ min: LIMITS.list.min, max: 1000 - 360 - 300 });
    expect(bounds.form).toEqual({ min: LIMITS.form.min, max: 1000 - 360 - 260 });
    expect(bounds.positions).toEqual({ min: LIMITS.positions.min, max: 843 - LIMITS.chartHeight });
    expect(panelBounds(DEFAULT_LAYOUT, 3840, 2160).list.max).toBe(LIMITS.list.max);
  });
});
