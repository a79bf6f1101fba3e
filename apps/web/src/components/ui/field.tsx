import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown under the input in red, and announced. */
  error?: string | null;
  /** Controls at the end of the input row (send-code button, unit). */
  end?: ReactNode;
  /** A rule shown under the input before anything is typed, and announced with it. */
  hint?: string;
}

/** A labelled text input with its validation message. */
export function Field({ label, error, end, hint, className = '', ...props }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm text-muted">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="min-w-0 flex-1 rounded-lg border border-border bg-surface px-3 py-2.5 text-text outline-none placeholder:text-muted/70 focus:border-accent"
          {...props}
        />
        {end}
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-down">
          {error}
        </p>
      )}
    </div>
  );
}
