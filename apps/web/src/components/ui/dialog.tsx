import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from './icons';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  /** Buttons shown under the content. */
  footer?: ReactNode;
  /** `sheet` slides up from the bottom (mobile drawers); `center` is a centred box. */
  variant?: 'center' | 'sheet';
}

/** Modal dialog or bottom sheet: closes on Escape and on the backdrop, returns focus on close. */
export function Dialog({ open, onClose, title, children, footer, variant = 'center' }: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [open, onClose]);

  if (!open) return null;
  const sheet = variant === 'sheet';
  return createPortal(
    <div className={`fixed inset-0 z-50 flex ${sheet ? 'items-end' : 'items-center'} justify-center`}>
      <div className="absolute inset-0 bg-black/60" aria-hidden="true" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative flex max-h-[85dvh] w-full flex-col bg-surface text-text shadow-xl outline-none ${
          sheet ? 'max-w-[480px] rounded-t-2xl' : 'mx-6 max-w-sm rounded-2xl'
        }`}
      >
        <header className="flex items-center gap-2 border-b border-border px-4 py-3">
          <h2 id={titleId} className="flex-1 text-base font-semibold">
            {title}
          </h2>
          <button type="button" aria-label={t('common.close')} onClick={onClose} className="-me-1 rounded p-1 text-muted hover:text-text">
            <CloseIcon />
          </button>
        </header>
        <div className="overflow-y-auto px-4 py-4">{children}</div>
        {footer && <footer className="flex gap-3 border-t border-border px-4 py-3">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}

export function Sheet(props: Omit<DialogProps, 'variant'>) {
  return <Dialog {...props} variant="sheet" />;
}
