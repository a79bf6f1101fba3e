import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { statement } from '@tp/contract/endpoints/trading';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type Statement = OutputOf<typeof statement>;
export type StatementLogRow = Statement['log'][number];
export type StatementPosition = Statement['positions'][number];

/** Bounds in Unix seconds: start included, end excluded (local midnights of the chosen dates). */
export interface StatementBounds {
  start: number;
  end: number;
}

export const getStatementQueryOptions = (bounds: StatementBounds | null) =>
  queryOptions({
    queryKey: queryKey(statement, bounds ?? undefined),
    queryFn: ({ signal }) => call(statement, bounds!, { signal, showErrorMessage: false }),
    enabled: bounds !== null,
    placeholderData: keepPreviousData,
  });

/** The account statement of a date range (null: no valid range chosen, nothing fetched). */
export const useStatement = (bounds: StatementBounds | null) => useQuery(getStatementQueryOptions(bounds));
