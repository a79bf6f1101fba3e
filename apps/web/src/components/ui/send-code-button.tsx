import { useEffect, useState } from 'react';
import { RESEND_CODE_COUNTDOWN_S } from '@tp/contract/constants';
import { Button } from './button';

export interface SendCodeButtonProps {
  label: string;
  /** The label while counting down, given the seconds left. */
  countdownLabel: (seconds: number) => string;
  /** Sends the code; resolves true when sent, which starts the 60 s countdown. */
  onSend: () => Promise<boolean>;
}

/** "Send code", then a 60 s countdown before it can be sent again (spec section 9). */
export function SendCodeButton({ label, countdownLabel, onSend }: SendCodeButtonProps) {
  const [left, setLeft] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const send = async () => {
    setBusy(true);
    try {
      if (await onSend()) setLeft(RESEND_CODE_COUNTDOWN_S);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="secondary" className="shrink-0 whitespace-nowrap px-3" disabled={busy || left > 0} onClick={() => void send()}>
      {left > 0 ? countdownLabel(left) : label}
    </Button>
  );
}
