import { describe, expect, it } from 'vitest';
import { closeLotsProblem, isolateLtr } from './close-lots';

describe('lots of a partial close (held 0.10, minimum 0.01, step 0.01)', () => {
  it.each([
    ['0.10', null],
    ['0.1', null],
    ['0.04', null],
    ['0.09', null],
    ['', 'required'],
    ['0', 'required'],
    ['abc', 'required'],
    ['0.11', 'max'],
    ['0.015', 'step'],
    ['0.005', 'min'],
  ] as const)('%s -> %s', (lots, problem) => {
    expect(closeLotsProblem(lots, '0.10', '0.01', '0.01')).toBe(problem);
  });

  it('refuses a close that would leave less than the minimum open', () => {
    expect(closeLotsProblem('0.95', '1', '0.1', '0.05')).toBe('min');
  });
});

describe('signed figures in sentences', () => {
  it('isolates them left-to-right without the Arabic letter mark', () => {
    expect(isolateLtr('\u061c-0.200000')).toBe('\u2066-0.200000\u2069');
  });
});
