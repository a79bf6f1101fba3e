import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { CloseIcon, SearchIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { getTradeListQueryOptions } from '../../../api/get-trade-list';
import { MarketList } from './market-list';
import { useFavourites } from '../../../api/favourites';
import { readRecentSearches, saveRecentSearches, withRecentSearch } from './recent-searches';

const DEBOUNCE_MS = 300;

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return debounced;
}

/** /product: symbol search (searchCurrency), debounced, with recent searches. */
export function ProductPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const [recent, setRecent] = useState(readRecentSearches);
  const search = useDebounced(term.trim());
  const results = useQuery({ ...getTradeListQueryOptions(search), enabled: search.length > 0, placeholderData: keepPreviousData });
  const favourites = useFavourites();
  const listRef = useRef<HTMLDivElement>(null);

  const remember = (value: string) => {
    const next = withRecentSearch(recent, value);
    setRecent(next);
    saveRecentSearches(next);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const first = results.data?.[0];
    if (event.key === 'Enter' && first && search) {
      remember(search);
      navigate(`/trade?symbol=${encodeURIComponent(first.Code)}`);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      listRef.current?.querySelector<HTMLElement>('a,button')?.focus();
    } else if (event.key === 'Escape') setTerm('');
  };

  let body;
  if (!search) {
    body =
      recent.length === 0 ? null : (
        <section aria-labelledby="recent-title" className="px-4 py-3">
          <div className="mb-2 flex items-center">
            <h2 id="recent-title" className="flex-1 text-sm text-muted">
              {t('markets.recent_searches')}
            </h2>
            <button
              type="button"
              className="text-xs text-muted hover:text-text"
              onClick={() => {
                setRecent([]);
                saveRecentSearches([]);
              }}
            >
              {t('markets.clear_recent')}
            </button>
          </div>
          <ul className="flex flex-wrap gap-2">
            {recent.map((item) => (
              <li key={item}>
                <button type="button" className="rounded-full bg-surface-2 px-3 py-1.5 text-sm" onClick={() => setTerm(item)}>
                  {item}
                </button>
              </li>
            ))}
          </ul>
        </section>
      );
  } else if (results.isPending) body = <SkeletonRows rows={4} />;
  else if (results.isError) body = <ErrorState onRetry={() => void results.refetch()} />;
  else if (results.data.length === 0) body = <EmptyState message={t('markets.no_results')} />;
  else
    body = (
      <div onClickCapture={() => remember(search)}>
        <MarketList symbols={results.data} favourites={favourites.ids} onStar={favourites.toggle} />
      </div>
    );

  return (
    <>
      <PageHeader title={t('pages.product')} />
      <div className="px-4 pt-3">
        <label className="flex items-center gap-2 rounded-lg bg-surface-2 px-3">
          <SearchIcon className="size-4 text-muted" />
          <input
            type="search"
            autoFocus
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            onKeyDown={onKeyDown}
            aria-label={t('markets.search_label')}
            placeholder={t('markets.search_placeholder')}
            enterKeyHint="search"
            autoComplete="off"
            className="h-10 min-w-0 flex-1 bg-transparent text-sm outline-none placeholder:text-muted [&::-webkit-search-cancel-button]:hidden"
          />
          {term && (
            <button type="button" aria-label={t('markets.clear_search')} onClick={() => setTerm('')} className="text-muted">
              <CloseIcon className="size-4" />
            </button>
          )}
        </label>
      </div>
      <div ref={listRef} aria-live="polite">
        {body}
      </div>
    </>
  );
}
