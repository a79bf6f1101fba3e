import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API client already tells the user what failed; screens offer their own retry.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    // A mutation moves money: it goes out now or fails now (offline: the fetch fails at once with the
    // network-error toast), never paused and sent later at a price the trader no longer sees.
    mutations: { retry: false, networkMode: 'always' },
  },
});
