import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title';
import { BackIcon } from './icons';

export interface PageHeaderProps {
  title: string;
  /** Show a back button (sub pages); tab pages have none. */
  back?: boolean;
  /** Controls at the end of the bar (icons with aria-labels). */
  actions?: ReactNode;
}

function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

export function PageHeader({ title, back = true, actions }: PageHeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(title);

  return (
    <header className="sticky top-[var(--header-offset,0px)] z-20 flex h-12 items-center gap-2 border-b border-border bg-bg/95 px-2 backdrop-blur">
      {back ? (
        <button
          type="button"
          aria-label={t('common.back')}
          onClick={() => (canGoBack() ? navigate(-1) : navigate('/'))}
          className="rounded p-2 text-text hover:bg-surface-2"
        >
          <BackIcon />
        </button>
      ) : (
        <span className="w-2" />
      )}
      <h1 className="flex-1 truncate text-base font-semibold">{title}</h1>
      {actions && <div className="flex items-center gap-1 pe-1">{actions}</div>}
    </header>
  );
}
