import { describe, expect, it } from 'vitest';
import { GroupCommit, Permits } from './group-commit.ts';

const tick = () => new Promise((r) => setImmediate(r));

function harness(opts: {
  lanes?: number;
  maxGroup?: number;
  permits?: number;
  failGroup?: (b: number[]) => boolean;
  failOne?: (b: number) => boolean;
}) {
  const groups: number[][] = [];
  const ones: number[] = [];
  let running = 0;
  let most = 0;
  const gate: { open: (() => void) | null } = { open: null };
  const commit = new GroupCommit<number>({
    runGroup: async (batches) => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      if (opts.failGroup?.(batches)) throw new Error('group failed');
      groups.push(batches);
    },
    runOne: async (batch) => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      if (opts.failOne?.(batch)) throw new Error(`batch ${batch} failed`);
      ones.push(batch);
    },
    laneOf: (b) => b,
    lanes: opts.lanes ?? 1,
    maxGroup: opts.maxGroup ?? 16,
    permits: new Permits(opts.permits ?? 8),
  });
  return { commit, groups, ones, gate, most: () => most };
}

describe('group commit', () => {
  it('writes the batches of one turn in one group, and a lone batch alone at once', async () => {
    const h = harness({});
    await Promise.all([1, 2, 3, 4].map((b) => h.commit.submit(b)));
    expect(h.groups).toEqual([[1, 2, 3, 4]]);
    await h.commit.submit(5);
    expect(h.ones).toEqual([5]);
  });

  it('caps a group at maxGroup and writes the next group when the previous one committed', async () => {
    const h = harness({ maxGroup: 3 });
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((b) => h.commit.submit(b)));
    expect(h.groups).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(h.ones).toEqual([7]);
    expect(h.most()).toBe(1);
  });

  it('batches submitted while a lane writes form its next group', async () => {
    const h = harness({});
    const first = h.commit.submit(1);
    await tick();
    // Lane busy with [1]: these wait and go together.
    const rest = [2, 3, 4].map((b) => h.commit.submit(b));
    await Promise.all([first, ...rest]);
    expect(h.ones).toEqual([1]);
    expect(h.groups).toEqual([[2, 3, 4]]);
  });

  it('runs lanes side by side, within the permits', async () => {
    const h = harness({ lanes: 4, permits: 2 });
    await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((b) => h.commit.submit(b)));
    expect(h.groups.map((g) => [...g].sort())).toEqual(
      expect.arrayContaining([
        [0, 4],
        [1, 5],
        [2, 6],
        [3, 7],
      ]),
    );
    expect(h.most()).toBe(2);
  });

  it('retries each batch of a failed group alone: only the bad batch fails', async () => {
    const h = harness({ failGroup: (b) => b.includes(3), failOne: (b) => b === 3 });
    const results = await Promise.allSettled([1, 2, 3, 4].map((b) => h.commit.submit(b)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(h.groups).toEqual([]);
    expect(h.ones).toEqual([1, 2, 4]);
  });

  it('never groups batches submitted in different scopes (e.g. two leader epochs)', async () => {
    let scope = 1;
    const groups: number[][] = [];
    const seen: unknown[] = [];
    const commit = new GroupCommit<number>({
      runGroup: async (b) => void groups.push(b),
      runOne: async (b) => void groups.push([b]),
      laneOf: () => 0,
      lanes: 1,
      maxGroup: 16,
      permits: new Permits(1),
      scope: () => scope,
      enter: (s, fn) => (seen.push(s), fn()),
    });
    const a = [1, 2].map((b) => commit.submit(b));
    scope = 2;
    const b = [3, 4].map((x) => commit.submit(x));
    await Promise.all([...a, ...b]);
    expect(groups).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(seen).toEqual([1, 2]);
  });
});
