import { CopyButton } from '../../../components/ui/copy-button';

/** A label and a value (bank details, addresses), optionally with a copy button. */
export function DetailRow({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  if (!value) return null;
  return (
    <div className="flex items-center gap-3 py-2">
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="text-xs text-muted">{label}</span>
        <span className="break-all text-sm">{value}</span>
      </span>
      {copyLabel && <CopyButton text={value} label={copyLabel} />}
    </div>
  );
}
