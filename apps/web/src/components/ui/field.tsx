import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown under the input in red, and announced. */
  error?: string | null;
  /** Controls at the end of the input row (send-code button, unit). */
  end?: ReactNode;
}

/** A labelled text input with its validation message. */
export function Field({ label, error, end, className = '', ...props }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm text-muted">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="min-w-0 flex-1 rounded-lg border border-border bg-surface px-3 py-2.5 text-text outline-none placeholder:text-muted/70 focus:border-accent"
          {...props}
        />
        {end}
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs text-down">
          {error}
        </p>
      )}
    </div>
  );
}
