/** A row of choice chips (currency, network, withdrawal currency). */
export function ChipGroup<V extends string | number>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: V; label: string }[];
  value: V | undefined;
  onChange: (value: V) => void;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm text-muted">{label}</span>
      <div role="radiogroup" aria-label={label} className="flex flex-wrap gap-2">
        {options.map((option) => (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={option.value === value}
            onClick={() => onChange(option.value)}
            className={`rounded-lg border px-3 py-1.5 text-sm ${option.value === value ? 'border-accent bg-accent/10 text-accent' : 'border-border text-text hover:border-muted'}`}
          >
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}
