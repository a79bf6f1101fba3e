import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';

export interface FormField {
  name: string;
  label: string;
  type?: 'text' | 'number' | 'checkbox' | 'textarea' | 'select' | 'password';
  options?: [string, string][];
  /** A control of its own that keeps its value outside the form's values (the caller reads it on save). */
  render?: () => ReactNode;
  /** What the number is counted in (it may follow another field, e.g. the swap type): shown after the control, part of its name. */
  unit?: (values: FormValues) => string | null;
}

export type FormValues = Record<string, string | boolean>;

interface RecordFormProps {
  title: string;
  open: boolean;
  fields: FormField[];
  initial: FormValues;
  busy: boolean;
  onClose: () => void;
  onSubmit: (values: FormValues) => void;
}

/** A dialog editing one record: one labelled control per field, saved with one button. */
export function RecordForm({ title, open, fields, initial, busy, onClose, onSubmit }: RecordFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(initial);
  const set = (name: string, value: string | boolean) => setValues((v) => ({ ...v, [name]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(values);
  };
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <form className="flex flex-col gap-3" onSubmit={submit}>
        {fields.map((f) =>
          f.render ? (
            <div key={f.name}>{f.render()}</div>
          ) : (
            <FieldControl
              key={f.name}
              field={f}
              value={values[f.name] ?? (f.type === 'checkbox' ? false : '')}
              unit={f.unit?.(values) ?? null}
              onChange={(v) => set(f.name, v)}
            />
          ),
        )}
        <Button type="submit" block disabled={busy}>
          {t('admin.save')}
        </Button>
      </form>
    </Dialog>
  );
}

const inputClass = 'w-full rounded-lg border border-border bg-surface px-3 py-2 text-text outline-none focus:border-accent';

function FieldControl({
  field,
  value,
  unit,
  onChange,
}: {
  field: FormField;
  value: string | boolean;
  unit: string | null;
  onChange: (v: string | boolean) => void;
}) {
  if (field.type === 'checkbox') {
    return (
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(e.target.checked)} />
        {field.label}
      </label>
    );
  }
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-muted">{field.label}</span>
      {field.type === 'textarea' ? (
        <textarea className={`${inputClass} min-h-24`} value={String(value)} onChange={(e) => onChange(e.target.value)} />
      ) : field.type === 'select' ? (
        <select className={inputClass} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {field.options?.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      ) : (
        <span className="flex items-center gap-2">
          <input
            className={inputClass}
            type={field.type === 'password' ? 'password' : 'text'}
            inputMode={field.type === 'number' ? 'decimal' : undefined}
            value={String(value)}
            onChange={(e) => onChange(e.target.value)}
          />
          {unit && (
            <span data-testid="field-unit" className="shrink-0 text-muted">
              {unit}
            </span>
          )}
        </span>
      )}
    </label>
  );
}
