import { describe, expect, it } from 'vitest';
import { withRecentSearch } from './recent-searches';

describe('recent searches', () => {
  it('puts the newest first without duplicates and keeps eight', () => {
    let list: string[] = [];
    for (const term of ['btc', 'eur', 'BTC', ' xau ', '', 'a', 'b', 'c', 'd', 'e', 'f']) list = withRecentSearch(list, term);
    expect(list).toEqual(['f', 'e', 'd', 'c', 'b', 'a', 'xau', 'BTC']);
  });
});
