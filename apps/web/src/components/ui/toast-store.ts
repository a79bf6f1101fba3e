import { create } from 'zustand';

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastItem {
  id: number;
  message: string;
  tone: ToastTone;
}

interface ToastState {
  toasts: ToastItem[];
  dismiss: (id: number) => void;
}

const TOAST_DURATION_MS = 2_500;
let nextId = 1;

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((item) => item.id !== id) })),
}));

/** Shows a short message; callable from anywhere, including outside React. */
export function toast(message: string, tone: ToastTone = 'info', durationMs = TOAST_DURATION_MS): number {
  const id = nextId++;
  useToastStore.setState((state) => ({ toasts: [...state.toasts, { id, message, tone }] }));
  setTimeout(() => useToastStore.getState().dismiss(id), durationMs);
  return id;
}
