import { create } from 'zustand';

interface LoadingState {
  /** Requests flagged `loading` that have not answered yet. */
  pending: number;
}

export const useLoadingStore = create<LoadingState>()(() => ({ pending: 0 }));

export function showLoading(): void {
  useLoadingStore.setState((state) => ({ pending: state.pending + 1 }));
}

export function hideLoading(): void {
  useLoadingStore.setState((state) => ({ pending: Math.max(0, state.pending - 1) }));
}
