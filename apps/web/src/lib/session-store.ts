import type { User } from '@tp/contract/schemas/auth';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The logged-in user as loginForU answers it. */
export type SessionUser = User;

interface SessionState {
  token: string | null;
  user: SessionUser | null;
  login: (token: string, user: SessionUser) => void;
  setUser: (user: SessionUser) => void;
  logout: () => void;
}

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      user: null,
      login: (token, user) => set({ token, user }),
      setUser: (user) => set({ user }),
      logout: () => set({ token: null, user: null }),
    }),
    {
      name: 'session',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ token, user }) => ({ token, user }),
    },
  ),
);

export const getToken = (): string | null => useSessionStore.getState().token;
export const isDemoUser = (user: SessionUser | null): boolean => Number(user?.is_demo) === 1;
