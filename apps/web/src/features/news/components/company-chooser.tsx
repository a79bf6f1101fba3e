import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { CheckIcon } from '../../../components/ui/icons';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { toast } from '../../../components/ui/toast-store';
import { rememberCompany } from '../../../lib/company';
import { announcementQueryKey } from '../api/get-announcement';
import { useCompanySearch } from '../api/search-companies';

/** Finds a company by name and remembers the choice in the company cookie (three years). */
export function CompanyChooser({ currentId }: { currentId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const query = useDeferredValue(name.trim());
  const search = useCompanySearch(query, open);

  const choose = (id: number) => {
    rememberCompany(id);
    setOpen(false);
    toast(t('news.company_chosen'), 'success');
    void queryClient.invalidateQueries({ queryKey: announcementQueryKey });
  };

  return (
    <>
      <Button variant="secondary" className="mx-4" onClick={() => setOpen(true)}>
        {t('news.choose_company')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('news.choose_company')} variant="sheet">
        <div className="flex flex-col gap-3">
          <input
            type="search"
            aria-label={t('news.company_name')}
            placeholder={t('news.company_name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="rounded-lg border border-border bg-surface-2 px-3 py-2.5 text-text outline-none placeholder:text-muted/70 focus:border-accent"
          />
          {search.isPending ? (
            <SkeletonRows rows={3} />
          ) : !search.data ? (
            <ErrorState onRetry={() => void search.refetch()} />
          ) : search.data.data.length === 0 ? (
            <EmptyState />
          ) : (
            <ul aria-label={t('news.company_results')} className="divide-y divide-border">
              {search.data.data.map((company) => (
                <li key={company.id}>
                  <button type="button" onClick={() => choose(company.id)} className="flex w-full items-center gap-3 py-3 text-start hover:bg-surface-2">
                    {company.logo ? (
                      <img src={company.logo} alt="" className="size-8 rounded bg-surface-2 object-contain" />
                    ) : (
                      <span className="size-8 rounded bg-surface-2" />
                    )}
                    <span className="flex-1">{company.name}</span>
                    {company.id === currentId && <CheckIcon className="size-5 text-accent" />}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Dialog>
    </>
  );
}
