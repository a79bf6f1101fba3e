import { queryOptions, useQuery } from '@tanstack/react-query';
import { drawMethods } from '@tp/contract/endpoints/funding';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

export type DrawMethod = OutputOf<typeof drawMethods>[number];

/** Every list of receiving accounts: invalidated after one is bound or deleted. */
export const drawMethodsQueryKey = queryKey(drawMethods);

/** Bound receiving accounts (draw_type 1 coin, 2 bank; draw_id a withdrawal currency). */
export const getDrawMethods = (drawType: 1 | 2, drawId?: number) =>
  call(drawMethods, { draw_type: drawType, draw_id: drawId }, { showErrorMessage: false });

export const getDrawMethodsQueryOptions = (drawType: 1 | 2, drawId?: number) =>
  queryOptions({
    queryKey: queryKey(drawMethods, { draw_type: drawType, draw_id: drawId ?? 0 }),
    queryFn: () => getDrawMethods(drawType, drawId),
    staleTime: 0,
  });

export const useDrawMethods = (drawType: 1 | 2, drawId: number | undefined, enabled: boolean) =>
  useQuery({ ...getDrawMethodsQueryOptions(drawType, drawId), enabled });
