import { useToastStore, type ToastTone } from './toast-store';

const toneClass: Record<ToastTone, string> = {
  info: 'bg-surface-2 text-text',
  success: 'bg-surface-2 text-text border-up/60',
  error: 'bg-surface-2 text-text border-down/60',
};

/** Renders the messages queued with `toast()`. */
export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-1/3 z-[60] flex flex-col items-center gap-2 px-6"
    >
      {toasts.map((item) => (
        <p
          key={item.id}
          data-tone={item.tone}
          className={`max-w-sm rounded-lg border border-transparent px-4 py-2.5 text-center text-sm shadow-lg ${toneClass[item.tone]}`}
        >
          {item.message}
        </p>
      ))}
    </div>
  );
}
