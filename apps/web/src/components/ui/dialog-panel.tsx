import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Drawer } from 'vaul';
import { CloseIcon } from './icons';

import type { DialogProps } from './dialog';

const overlayClass = 'fixed inset-0 z-50 bg-black/60';
const panelClass = 'flex max-h-[85dvh] flex-col bg-surface text-text shadow-xl outline-none';

/**
 * Modal dialog (Radix Dialog) or bottom sheet (vaul, a Radix Dialog that can be dragged down): focus
 * kept inside, page scroll locked, everything outside hidden from assistive technology, Escape and the
 * backdrop close it, the focus goes back to what opened it, and it is labelled by its title.
 */
export default function DialogPanel({ open, onClose, title, children, footer, variant = 'center', initialFocus }: DialogProps) {
  const { t } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const onOpenChange = (next: boolean) => {
    if (!next) onClose();
  };
  // Radix returns the focus to a Dialog.Trigger; these dialogs are opened by state, so the element that had
  // the focus when one opened gets it back when it closes (or unmounts), if it is still on the page.
  const returnTo = useRef<HTMLElement | null>(null);
  const onOpenAutoFocus = (event: Event) => {
    event.preventDefault();
    const active = document.activeElement;
    returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
    const target = initialFocus?.current ?? panel.current;
    target?.focus();
    // A text field given the first focus has its text selected, so that typing replaces it.
    if (target instanceof HTMLInputElement) target.select();
  };
  const onCloseAutoFocus = (event: Event) => {
    event.preventDefault();
    if (returnTo.current?.isConnected) returnTo.current.focus();
  };
  const body = (
    <>
      <header className="flex items-center gap-2 border-b border-border px-4 py-3">
        <RadixDialog.Title className="flex-1 text-base font-semibold">{title}</RadixDialog.Title>
        <RadixDialog.Close aria-label={t('common.close')} className="-me-1 rounded p-1 text-muted hover:text-text">
          <CloseIcon />
        </RadixDialog.Close>
      </header>
      <div className="overflow-y-auto px-4 py-4">{children}</div>
      {footer && <footer className="flex gap-3 border-t border-border px-4 py-3">{footer}</footer>}
    </>
  );

  if (variant === 'sheet') {
    // noBodyStyles: Radix already locks the scroll; vaul's iOS body pinning is not undone when a sheet unmounts open.
    return (
      <Drawer.Root open={open} onOpenChange={onOpenChange} noBodyStyles>
        <Drawer.Portal>
          <Drawer.Overlay className={overlayClass} />
          <Drawer.Content
            ref={panel}
            aria-describedby={undefined}
            onOpenAutoFocus={onOpenAutoFocus}
            onCloseAutoFocus={onCloseAutoFocus}
            className={`${panelClass} fixed inset-x-0 bottom-0 z-50 mx-auto w-full max-w-[480px] rounded-t-2xl pb-[env(safe-area-inset-bottom)]`}
          >
            <div aria-hidden="true" className="mx-auto mt-2 h-1 w-10 shrink-0 rounded-full bg-border" />
            {body}
          </Drawer.Content>
        </Drawer.Portal>
      </Drawer.Root>
    );
  }
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          ref={panel}
          aria-describedby={undefined}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={onCloseAutoFocus}
          className={`${panelClass} fixed inset-x-0 top-1/2 z-50 mx-auto w-[calc(100%-3rem)] max-w-sm -translate-y-1/2 rounded-2xl`}
        >
          {body}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
