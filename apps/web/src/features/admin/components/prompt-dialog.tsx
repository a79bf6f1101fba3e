import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

interface PromptDialogProps {
  title: string;
  /** Label of the one text input; without it the dialog only asks to confirm. */
  label?: string;
  /** The text may be left empty (an optional reason). */
  optional?: boolean;
  initial?: string;
  busy: boolean;
  danger?: boolean;
  children?: ReactNode;
  onCancel: () => void;
  onConfirm: (value: string) => void;
}

/** Confirms an action, with one required text (reason, amount, reference) when `label` is given. */
export function PromptDialog({ title, label, optional, initial = '', busy, danger, children, onCancel, onConfirm }: PromptDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    if (label && !optional && !value.trim()) {
      setError(t('admin.fill_all'));
      return;
    }
    onConfirm(value.trim());
  };
  return (
    <ConfirmDialog open title={title} busy={busy} danger={danger} onCancel={onCancel} onConfirm={confirm}>
      <div className="flex flex-col gap-3">
        {children}
        {label && <Field label={label} value={value} error={error} onChange={(e) => setValue(e.target.value)} autoFocus />}
      </div>
    </ConfirmDialog>
  );
}
