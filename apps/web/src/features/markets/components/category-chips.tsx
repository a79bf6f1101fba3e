import { useTranslation } from 'react-i18next';
import type { Category } from '../../../api/get-categories';

/** What home shows: every symbol, the starred ones, or one category. */
export type HomeFilter = number | null | 'favourites';

/** Filter chips: favourites first, then all symbols, then one chip per category. */
export function CategoryChips({
  categories,
  selected,
  onSelect,
}: {
  categories: Category[];
  selected: HomeFilter;
  onSelect: (filter: HomeFilter) => void;
}) {
  const { t } = useTranslation();
  const chip = (id: HomeFilter, label: string) => (
    <li key={id ?? 'all'}>
      <button
        type="button"
        aria-pressed={selected === id}
        onClick={() => onSelect(id)}
        className={`whitespace-nowrap rounded-full px-3 py-1.5 text-sm ${
          selected === id ? 'bg-accent text-on-accent' : 'bg-surface-2 text-muted hover:text-text'
        }`}
      >
        {label}
      </button>
    </li>
  );
  return (
    <nav aria-label={t('markets.categories')} className="overflow-x-auto px-4 py-2">
      <ul className="flex gap-2">
        {chip('favourites', t('common.favourites'))}
        {chip(null, t('markets.all'))}
        {categories.map((category) => chip(category.Id, category.NameShowTrans))}
      </ul>
    </nav>
  );
}
