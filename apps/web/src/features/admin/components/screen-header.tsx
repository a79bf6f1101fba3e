import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';

/** A screen's heading, the same size on every screen. */
export function ScreenTitle({ children }: { children: ReactNode }) {
  return <h1 className="mb-4 text-lg font-semibold">{children}</h1>;
}

/** A screen's row of tabs, each labelled admin.tab.<name>. */
export function ScreenTabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: readonly T[];
  value: T;
  onChange: (tab: T) => void;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <div role="tablist" aria-label={label} className="mb-4 flex gap-1 overflow-x-auto">
      {tabs.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          aria-selected={value === name}
          onClick={() => onChange(name)}
          className={`shrink-0 rounded-lg px-3 py-1.5 text-sm ${value === name ? 'bg-accent text-on-accent' : 'bg-surface-2'}`}
        >
          {t(adminKey(`admin.tab.${name}`))}
        </button>
      ))}
    </div>
  );
}
