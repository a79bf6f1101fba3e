import { describe, expect, it } from 'vitest';
import { hashQuery, readQueryParam } from './query-params';

describe('readQueryParam', () => {
  it('reads the normal query string first', () => {
    expect(readQueryParam('id', '?id=1', '#?id=3')).toBe('1');
  });

  it('falls back to a query right after the hash', () => {
    expect(readQueryParam('id', '', '#?id=3')).toBe('3');
  });

  it('falls back to a query after a hash path', () => {
    expect(readQueryParam('id', '', '#/x?id=3')).toBe('3');
    expect(readQueryParam('type', '?other=1', '#/news/detail?id=9&type=2')).toBe('2');
  });

  it('decodes values', () => {
    expect(readQueryParam('redirect', '', '#?redirect=%2Forder%3Ftype%3D1')).toBe('/order?type=1');
  });

  it('returns null when the parameter is nowhere', () => {
    expect(readQueryParam('id', '', '')).toBeNull();
    expect(readQueryParam('id', '?x=1', '#section')).toBeNull();
    expect(readQueryParam('id', '', '#/news/detail')).toBeNull();
  });

  it('keeps an empty value distinct from a missing one', () => {
    expect(readQueryParam('id', '?id=', '#?id=3')).toBe('');
  });
});

describe('hashQuery', () => {
  it('is the text after the first question mark of the hash', () => {
    expect(hashQuery('#/x?id=3&a=b')).toBe('id=3&a=b');
    expect(hashQuery('#top')).toBe('');
  });
});
