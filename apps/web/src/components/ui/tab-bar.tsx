import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface TabBarItem {
  id: string;
  to: string;
  label: string;
  icon: ReactNode;
  active: boolean;
}

/** Bottom navigation of the mobile layout. */
export function TabBar({ items, label }: { items: TabBarItem[]; label: string }) {
  return (
    <nav
      aria-label={label}
      className="fixed inset-x-0 bottom-0 z-30 mx-auto max-w-[480px] border-t border-border bg-surface pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="flex">
        {items.map((item) => (
          <li key={item.id} className="flex-1">
            <Link
              to={item.to}
              aria-current={item.active ? 'page' : undefined}
              className={`flex flex-col items-center gap-0.5 py-2 text-[11px] ${item.active ? 'text-accent' : 'text-muted hover:text-text'}`}
            >
              {item.icon}
              <span>{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
