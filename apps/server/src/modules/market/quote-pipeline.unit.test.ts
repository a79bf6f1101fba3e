import { describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { DeviationFilter, SUSPECT_HOLD_MS } from './quote-pipeline.ts';
import { sourceTimeOf } from './sources/external-feed.ts';

const ID = 1;
const PCT = dec(10);

describe('deviation filter: a held jump pauses the symbol for a bounded time', () => {
  // [mid, ms after the first tick, traded on, a suspect pending after it]
  it.each([
    {
      name: 'confirmed by two ticks near the new level',
      ticks: [
        ['80000', 0, false, true],
        ['80100', 10, false, true],
        ['80050', 20, true, false],
      ],
    },
    {
      name: 'forgotten when the price comes back',
      ticks: [
        ['80000', 0, false, true],
        ['95100', 10, true, false],
      ],
    },
    {
      name: 'a lone print then silence: the first tick after the bound decides, whatever its level',
      ticks: [
        ['80000', 0, false, true],
        ['70000', SUSPECT_HOLD_MS - 1, false, true],
        ['60000', SUSPECT_HOLD_MS, true, false],
      ],
    },
    {
      name: 'levels that never settle: the bound counts from the first held tick',
      ticks: [
        ['80000', 0, false, true],
        ['60000', 2_000, false, true],
        ['40000', 4_000, false, true],
        ['20000', SUSPECT_HOLD_MS + 1, true, false],
      ],
    },
  ] as { name: string; ticks: [string, number, boolean, boolean][] }[])('$name', ({ ticks }) => {
    const filter = new DeviationFilter();
    const start = 1_000_000;
    expect(filter.pending(ID)).toBe(false);
    for (const [mid, after, traded, pending] of ticks) {
      expect({ mid, traded: filter.admit(ID, PCT, dec('95000'), dec(mid), start + after) }).toEqual({ mid, traded });
      expect({ mid, pending: filter.pending(ID) }).toEqual({ mid, pending });
    }
  });
});

describe("the external feed's source timestamp", () => {
  it.each([
    [1_764_000_000_123, 1_764_000_000_123],
    [1_764_000_000, 1_764_000_000_000],
    ['1764000000123', 1_764_000_000_123],
    ['2025-11-24T16:00:00.500Z', Date.parse('2025-11-24T16:00:00.500Z')],
    [undefined, undefined],
    ['soon', undefined],
    [-5, undefined],
    [null, undefined],
  ])('%s is read as %s', (raw, ms) => {
    expect(sourceTimeOf(raw)).toBe(ms);
  });
});
