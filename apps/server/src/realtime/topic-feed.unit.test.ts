import { describe, expect, it } from 'vitest';
import { textFrame } from './frames.ts';
import { TopicFeed } from './topic-feed.ts';

const text = (b: Buffer | undefined) => {
  const out: string[] = [];
  for (let pos = 0; b && pos < b.length;) {
    const len = b[pos + 1]!;
    out.push(b.subarray(pos + 2, pos + 2 + len).toString());
    pos += 2 + len;
  }
  return out;
};

describe('topic feed', () => {
  it('frames text as one unmasked final frame, with extended lengths', () => {
    expect([...textFrame('pong')]).toEqual([0x81, 4, ...Buffer.from('pong')]);
    const mid = textFrame('x'.repeat(300));
    expect([mid[0], mid[1], mid.readUInt16BE(2), mid.length]).toEqual([0x81, 126, 300, 304]);
    const big = textFrame('y'.repeat(70_000));
    expect([big[1], Number(big.readBigUInt64BE(2)), big.length]).toEqual([127, 70_000, 70_010]);
  });

  it('gives a new follower the newest frame of every key, in change order', () => {
    const feed = new TopicFeed();
    feed.put('EURUSD', textFrame('e1'));
    feed.put('BTCUSDT', textFrame('b1'));
    feed.put('EURUSD', textFrame('e2'));
    expect(text(feed.since(0)?.bytes)).toEqual(['b1', 'e2']);
    expect(feed.since(0)?.frames).toBe(2);
    expect(feed.since(feed.current)).toBeNull();
  });

  it('builds each range once for the clients flushed together, and coalesces for one that lags', () => {
    const feed = new TopicFeed();
    feed.put('A', textFrame('a1'));
    feed.put('B', textFrame('b1'));
    const first = feed.since(0)!;
    expect(feed.since(0)).toBe(first);
    const lagging = 0;
    const inSync = feed.current;
    feed.put('A', textFrame('a2'));
    feed.put('A', textFrame('a3'));
    const round = feed.since(inSync)!;
    expect(text(round.bytes)).toEqual(['a3']);
    expect(feed.since(inSync)).toBe(round);
    expect(text(feed.since(lagging)!.bytes)).toEqual(['b1', 'a3']);
  });
});
