const STORAGE_KEY = 'recent-searches';
const MAX_RECENT = 8;

export function readRecentSearches(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/** The newest search first, without duplicates (case-insensitive), at most eight. */
export function withRecentSearch(list: string[], term: string): string[] {
  const clean = term.trim();
  if (!clean) return list;
  return [clean, ...list.filter((item) => item.toLowerCase() !== clean.toLowerCase())].slice(0, MAX_RECENT);
}

export function saveRecentSearches(list: string[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
  } catch {
    // Private mode without storage: recent searches last for this visit only.
  }
}
