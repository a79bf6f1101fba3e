import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { favouriteAdd, favouriteRemove, favourites } from '@tp/contract/endpoints/market';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { call, queryKey } from '../lib/api-client';
import { useSessionStore } from '../lib/session-store';

const GUEST_KEY = 'favourites';
const guestListeners = new Set<() => void>();
let guestCache: number[] | null = null;

function readGuest(): number[] {
  if (guestCache) return guestCache;
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(GUEST_KEY) ?? '[]');
    guestCache = Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    guestCache = [];
  }
  return guestCache;
}

function writeGuest(ids: number[]): void {
  guestCache = ids;
  try {
    localStorage.setItem(GUEST_KEY, JSON.stringify(ids));
  } catch {
    // Private mode: the stars last for this visit only.
  }
  for (const listener of guestListeners) listener();
}

const subscribeGuest = (listener: () => void) => {
  guestListeners.add(listener);
  return () => guestListeners.delete(listener);
};

/**
 * The starred symbols: on the server for a signed-in trader, in this browser for a guest.
 * `toggle` stars or unstars at once (optimistic) and keeps the server's answer.
 */
export function useFavourites(): { ids: ReadonlySet<number>; toggle: (symbolId: number) => void } {
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const queryClient = useQueryClient();
  const key = queryKey(favourites);
  const server = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(favourites, undefined, { signal, showErrorMessage: false }),
    enabled: loggedIn,
    staleTime: 60_000,
  });
  const guest = useSyncExternalStore(subscribeGuest, readGuest, () => []);
  const mutation = useMutation({
    mutationFn: ({ id, add }: { id: number; add: boolean }) => call(add ? favouriteAdd : favouriteRemove, { forex_id: id }),
    onMutate: ({ id, add }) => {
      const before = queryClient.getQueryData<number[]>(key) ?? [];
      queryClient.setQueryData<number[]>(key, add ? [...before.filter((x) => x !== id), id] : before.filter((x) => x !== id));
      return { before };
    },
    onError: (_error, _vars, context) => queryClient.setQueryData(key, context?.before),
    onSuccess: (list) => queryClient.setQueryData(key, list),
  });
  const list = loggedIn ? server.data : guest;
  const ids = useMemo(() => new Set(list ?? []), [list]);
  const { mutate } = mutation;
  const toggle = useCallback(
    (id: number) => {
      const add = !ids.has(id);
      if (loggedIn) mutate({ id, add });
      else writeGuest(add ? [...readGuest(), id] : readGuest().filter((x) => x !== id));
    },
    [ids, loggedIn, mutate],
  );
  return { ids, toggle };
}
