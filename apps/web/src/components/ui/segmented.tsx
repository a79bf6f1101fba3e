export interface SegmentedOption<V extends string | number> {
  value: V;
  label: string;
}

/** A row of mutually exclusive choices shown as tabs (email/phone, coin/bank). */
export function Segmented<V extends string | number>({
  options,
  value,
  onChange,
  label,
}: {
  options: SegmentedOption<V>[];
  value: V;
  onChange: (value: V) => void;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 rounded-lg bg-surface p-1">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="tab"
          aria-selected={option.value === value}
          onClick={() => onChange(option.value)}
          className={`flex-1 rounded-md px-3 py-2 text-sm ${option.value === value ? 'bg-surface-2 font-medium text-accent' : 'text-muted hover:text-text'}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
