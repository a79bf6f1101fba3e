import type { Company } from '@tp/contract/schemas/content';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/error-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { useAnnouncement } from '../api/get-announcement';
import { CompanyChooser } from './company-chooser';

const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

function CompanyRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function CompanyCard({ company }: { company: Company }) {
  const { t } = useTranslation();
  return (
    <section className="mx-4 overflow-hidden rounded-xl bg-surface">
      <div className="flex items-center gap-3 border-b border-border px-4 py-3">
        {company.logo && <img src={company.logo} alt="" className="size-10 rounded-lg bg-surface-2 object-contain" />}
        <h2 className="font-semibold">{t('news.company')}</h2>
      </div>
      {company.subject && <p className="border-b border-border px-4 py-3 text-sm leading-relaxed text-muted">{company.subject}</p>}
      <dl className="divide-y divide-border">
        <CompanyRow label={t('news.main_company')}>{company.name}</CompanyRow>
        {company.email && (
          <CompanyRow label={t('news.contact_email')}>
            <a href={`mailto:${company.email}`} className="text-accent underline" dir="ltr">
              {company.email}
            </a>
          </CompanyRow>
        )}
        {company.url && isWebAddress(company.url) && (
          <CompanyRow label={t('news.website')}>
            <a href={company.url} target="_blank" rel="noopener noreferrer" className="text-accent underline" dir="ltr">
              {company.url}
            </a>
          </CompanyRow>
        )}
        {company.location && <CompanyRow label={t('news.office_address')}>{company.location}</CompanyRow>}
        {company.registered_address && <CompanyRow label={t('news.registered_address')}>{company.registered_address}</CompanyRow>}
      </dl>
    </section>
  );
}

/** /mine/announcement: the countries the service is not offered in, staff's notice and the company's data. */
export function AnnouncementPage() {
  const { t, i18n } = useTranslation();
  const announcement = useAnnouncement(i18n.language);
  return (
    <>
      <PageHeader title={t('pages.announcement')} />
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 py-4">
        {announcement.isPending ? (
          <SkeletonRows rows={5} />
        ) : announcement.isError ? (
          <ErrorState onRetry={() => void announcement.refetch()} />
        ) : (
          <>
            <p className="mx-4 rounded-xl border border-border bg-surface p-4 leading-relaxed">{announcement.data.announcement}</p>
            {announcement.data.notice && <p className="mx-4 whitespace-pre-line leading-relaxed text-muted">{announcement.data.notice}</p>}
            <CompanyCard company={announcement.data.company} />
            <CompanyChooser currentId={announcement.data.company.id} />
          </>
        )}
      </div>
    </>
  );
}
