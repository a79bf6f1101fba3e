import { lazy, Suspense, useState, type ReactNode, type RefObject } from 'react';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  /** Buttons shown under the content. */
  footer?: ReactNode;
  /** `sheet` slides up from the bottom (mobile drawers); `center` is a centred box. */
  variant?: 'center' | 'sheet';
  /**
   * What takes the focus when the dialog opens (an input with its text selected); the panel itself when
   * left out. Set here rather than focused by the caller: the panel loads on first open, after the caller's effects.
   */
  initialFocus?: RefObject<HTMLElement | null>;
}

// Radix Dialog loads the first time a dialog opens, not with the screens that may open one.
const DialogPanel = lazy(() => import('./dialog-panel'));

/**
 * Modal dialog or bottom sheet on Radix Dialog: focus trap, scroll lock, inert background,
 * Escape and the backdrop close it, focus returns to the trigger, labelled by its title.
 */
export function Dialog(props: DialogProps) {
  // Stays mounted after the first open so that closing runs the primitive's exit (focus return, animation).
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} />
    </Suspense>
  );
}

export function Sheet(props: Omit<DialogProps, 'variant'>) {
  return <Dialog {...props} variant="sheet" />;
}
