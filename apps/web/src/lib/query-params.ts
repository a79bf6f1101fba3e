import { useLocation } from 'react-router';

/** The query string inside a hash such as `#?id=3` or `#/news/detail?id=3`, without the `?`. */
export function hashQuery(hash: string): string {
  const at = hash.indexOf('?');
  return at === -1 ? '' : hash.slice(at + 1);
}

/** Reads a query parameter from `search`, then from the part after the hash (spec section 2). */
export function readQueryParam(name: string, search: string, hash: string): string | null {
  const fromSearch = new URLSearchParams(search).get(name);
  if (fromSearch !== null) return fromSearch;
  return new URLSearchParams(hashQuery(hash)).get(name);
}

export function useQueryParam(name: string): string | null {
  const { search, hash } = useLocation();
  return readQueryParam(name, search, hash);
}
