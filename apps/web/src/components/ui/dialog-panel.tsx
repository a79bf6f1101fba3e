import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type PointerEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from './icons';

import type { DialogProps } from './dialog';

const overlayClass = 'fixed inset-0 z-50 bg-black/60';
const panelClass = 'flex max-h-[85dvh] flex-col bg-surface text-text shadow-xl outline-none';

/** A sheet dragged down by more than this share of its height (or flicked down) closes. */
const CLOSE_SHARE = 0.25;
const FLICK_PX_PER_MS = 0.5;

/**
 * Drag-to-dismiss for a bottom sheet: the handle and the title bar follow the finger (or mouse)
 * downwards; let go far or fast enough and the sheet closes, otherwise it slides back. The body is
 * left to scroll and take input as usual.
 */
function useDragDown(panel: RefObject<HTMLDivElement | null>, onClose: () => void) {
  const drag = useRef<{ id: number; y: number; at: number; dy: number } | null>(null);
  const move = (dy: number, animate: boolean) => {
    const el = panel.current;
    if (!el) return;
    el.style.transition = animate ? 'transform 150ms ease-out' : 'none';
    el.style.transform = dy > 0 ? `translateY(${dy}px)` : '';
  };
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      // Buttons in the title bar (close) keep their own click.
      if (event.button !== 0 || (event.target as Element).closest('button')) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { id: event.pointerId, y: event.clientY, at: event.timeStamp, dy: 0 };
    },
    onPointerMove(event: PointerEvent<HTMLElement>) {
      const d = drag.current;
      if (!d || d.id !== event.pointerId) return;
      d.dy = Math.max(0, event.clientY - d.y);
      move(d.dy, false);
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const d = drag.current;
      if (!d || d.id !== event.pointerId) return;
      drag.current = null;
      const height = panel.current?.offsetHeight ?? Infinity;
      const speed = d.dy / Math.max(1, event.timeStamp - d.at);
      if (d.dy > height * CLOSE_SHARE || (d.dy > 20 && speed > FLICK_PX_PER_MS)) onClose();
      else move(0, true);
    },
    onPointerCancel() {
      drag.current = null;
      move(0, true);
    },
  };
}

/**
 * Modal dialog or bottom sheet, both Radix Dialog (the sheet can be dragged down by its handle and
 * title bar): focus kept inside, page scroll locked, everything outside hidden from assistive
 * technology, Escape and the backdrop close it, the focus goes back to what opened it, and it is
 * labelled by its title.
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
  const dragDown = useDragDown(panel, onClose);
  const sheet = variant === 'sheet';
  const body = (
    <>
      {sheet && (
        <div aria-hidden="true" className="flex shrink-0 touch-none justify-center pt-2" {...dragDown}>
          <div className="h-1 w-10 rounded-full bg-border" />
        </div>
      )}
      <header
        className={`flex items-center gap-2 border-b border-border px-4 py-3 ${sheet ? 'touch-none' : ''}`}
        {...(sheet ? dragDown : {})}
      >
        <RadixDialog.Title className="flex-1 text-base font-semibold">{title}</RadixDialog.Title>
        <RadixDialog.Close aria-label={t('common.close')} className="-me-1 rounded p-1 text-muted hover:text-text">
          <CloseIcon />
        </RadixDialog.Close>
      </header>
      <div className="overflow-y-auto px-4 py-4">{children}</div>
      {footer && <footer className="flex gap-3 border-t border-border px-4 py-3">{footer}</footer>}
    </>
  );

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          ref={panel}
          aria-describedby={undefined}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={onCloseAutoFocus}
          className={
            sheet
              ? `${panelClass} fixed inset-x-0 bottom-0 z-50 mx-auto w-full max-w-[480px] rounded-t-2xl pb-[env(safe-area-inset-bottom)]`
              : `${panelClass} fixed inset-x-0 top-1/2 z-50 mx-auto w-[calc(100%-3rem)] max-w-sm -translate-y-1/2 rounded-2xl`
          }
        >
          {body}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
