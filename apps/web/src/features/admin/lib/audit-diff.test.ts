import { describe, expect, it } from 'vitest';
import { auditDiff, flatten } from './audit-diff';

describe('audit diff', () => {
  it('lists each changed field as old and new, leaving unchanged fields out', () => {
    expect(
      auditDiff({ spread: '0.0002', min_lots: '0.01', visible: true }, { spread: '0.0003', min_lots: '0.01', visible: false }),
    ).toEqual([
      { path: 'spread', kind: 'changed', before: '0.0002', after: '0.0003' },
      { path: 'visible', kind: 'changed', before: 'true', after: 'false' },
    ]);
  });

  it('marks fields only after as added and only before as removed', () => {
    expect(auditDiff({ a: '1', gone: 'x' }, { a: '1', fresh: 2 })).toEqual([
      { path: 'gone', kind: 'removed', before: 'x' },
      { path: 'fresh', kind: 'added', after: '2' },
    ]);
  });

  it('flattens nested objects into a.b.c paths and lists of objects by index', () => {
    expect(
      auditDiff(
        { order: { stop: { loss: '1.1', profit: null } }, schedule: [{ day: 1, open: '00:00', close: '24:00' }] },
        {
          order: { stop: { loss: '1.2', profit: null } },
          schedule: [
            { day: 1, open: '08:00', close: '24:00' },
            { day: 2, open: '00:00', close: '12:00' },
          ],
        },
      ),
    ).toEqual([
      { path: 'order.stop.loss', kind: 'changed', before: '1.1', after: '1.2' },
      { path: 'schedule[0].open', kind: 'changed', before: '00:00', after: '08:00' },
      { path: 'schedule[1].day', kind: 'added', after: '2' },
      { path: 'schedule[1].open', kind: 'added', after: '00:00' },
      { path: 'schedule[1].close', kind: 'added', after: '12:00' },
    ]);
  });

  it('keeps a list of plain values, and an empty object or list, as one value', () => {
    expect(flatten({ leverages: [10, 100], holidays: [], meta: {}, note: null, name: 'EUR/USD' })).toEqual(
      new Map([
        ['leverages', '[10,100]'],
        ['holidays', '[]'],
        ['meta', '{}'],
        ['note', 'null'],
        ['name', '"EUR/USD"'],
      ]),
    );
    expect(auditDiff({ leverages: [10, 100] }, { leverages: [10, 100, 200] })).toEqual([
      { path: 'leverages', kind: 'changed', before: '[10,100]', after: '[10,100,200]' },
    ]);
  });

  it('shows a created record as all added, a deleted one as all removed, and a plain value under an empty path', () => {
    expect(auditDiff(null, { id: 7, key: 'crypto' })).toEqual([
      { path: 'id', kind: 'added', after: '7' },
      { path: 'key', kind: 'added', after: 'crypto' },
    ]);
    expect(auditDiff({ id: 7 }, null)).toEqual([{ path: 'id', kind: 'removed', before: '7' }]);
    expect(auditDiff('0', '1')).toEqual([{ path: '', kind: 'changed', before: '0', after: '1' }]);
    expect(auditDiff({ same: 1 }, { same: 1 })).toEqual([]);
  });

  it('reads an empty object before a creation (a new account group under four-eyes) as nothing: every field added', () => {
    expect(auditDiff({}, { name: 'Scalpers', book: 'B' })).toEqual([
      { path: 'name', kind: 'added', after: 'Scalpers' },
      { path: 'book', kind: 'added', after: 'B' },
    ]);
  });

  it('shows a number turned into the same text as JSON, so the change is visible', () => {
    expect(auditDiff({ n: 1 }, { n: '1' })).toEqual([{ path: 'n', kind: 'changed', before: '1', after: '"1"' }]);
    expect(auditDiff({ n: 1 }, { n: '1.0' })).toEqual([{ path: 'n', kind: 'changed', before: '1', after: '1.0' }]);
  });
});
