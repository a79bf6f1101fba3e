import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { refreshAfterReconnect } from '../api/refresh-account';
import { LoadingIndicator } from '../components/ui/loading-indicator';
import { Toaster } from '../components/ui/toast';
import { queryClient } from '../lib/query-client';
import { useSessionStore } from '../lib/session-store';
import { socket } from '../lib/socket';

/**
 * When the session changes, the socket logs in again and no data of the previous session stays; when
 * the socket is back after a loss, what its pushes would have updated is fetched again.
 */
function useSessionChangeEffects(): void {
  useEffect(
    () =>
      useSessionStore.subscribe((state, previous) => {
        if (state.token === previous.token) return;
        socket.relogin();
        void queryClient.resetQueries();
      }),
    [],
  );
  useEffect(() => socket.onResync(() => refreshAfterReconnect(queryClient)), []);
}

export function AppProviders({ children }: { children: ReactNode }) {
  useSessionChangeEffects();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
      <LoadingIndicator />
    </QueryClientProvider>
  );
}
