import type { OutputOf } from '@tp/contract/endpoint';
import { useId, useState } from 'react';
import { ANNOUNCEMENT_LANG_KEYS, announcementKey, EDITABLE_SETTING_KEYS, RISK_SETTING_KEYS } from '@tp/contract/schemas/content';
import type { LangCode } from '@tp/contract/languages';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { ErrorState } from '../../../components/ui/error-state';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import * as contentApi from '@tp/contract/endpoints/content';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { hasRole, useStaffSession } from '../../../lib/staff-session-store';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { LanguageTabs, languageName } from './language-tabs';
import { type FormValues, RecordForm } from './record-form';

/** Base settings and risk levels, and company data, each for the roles that own it (the code outbox has its own screen). */
export function ContentScreen() {
  const { t } = useTranslation();
  const staff = useStaffSession((s) => s.staff);
  return (
    <section className="flex flex-col gap-8">
      <ScreenTitle>{t('admin.nav.content')}</ScreenTitle>
      {hasRole(staff, ['content', 'risk']) && <SettingsForm />}
      {hasRole(staff, ['content']) && <Companies />}
    </section>
  );
}

const CHOICES: Record<string, string[]> = {
  service_link_type: ['1', '2', '3'],
  verify_reg_type: ['1', '2'],
  is_show_mobile: ['0', '1'],
  allow_http_links: ['0', '1'],
};

function SettingsForm() {
  const { t } = useTranslation();
  const staff = useStaffSession((s) => s.staff);
  const q = useStaffQuery(contentApi.staffSettings, undefined);
  const save = useStaffMutation(contentApi.saveSettings);
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  if (q.isLoading) return <SkeletonRows rows={4} />;
  if (q.isError || !q.data) return <ErrorState onRetry={() => q.refetch()} />;
  const values = draft ?? q.data;
  const mine = EDITABLE_SETTING_KEYS.filter((k) =>
    (RISK_SETTING_KEYS as readonly string[]).includes(k) ? hasRole(staff, ['risk']) : hasRole(staff, ['content']),
  );
  // Only what staff changed is sent: a setting never stored (allow_http_links on a new install) is not sent as ''.
  const changed = mine.filter((k) => (values[k] ?? '') !== (q.data[k] ?? ''));
  const submit = () => save.mutate(Object.fromEntries(changed.map((k) => [k, values[k] ?? ''])), { onSuccess: () => setDraft(null) });
  return (
    <form className="flex max-w-xl flex-col gap-3" aria-label={t('admin.settings')} onSubmit={(e) => (e.preventDefault(), submit())}>
      <h2 className="font-medium">{t('admin.settings')}</h2>
      {mine
        .filter((k) => !(ANNOUNCEMENT_LANG_KEYS as readonly string[]).includes(k))
        .map((k) =>
          k === 'announcement' ? (
            <AnnouncementField key={k} values={values} onChange={(key, value) => setDraft({ ...values, [key]: value })} />
          ) : (
            <label key={k} className="flex flex-col gap-1 text-sm">
              <span className="text-muted">{t(adminKey(`admin.setting.${k}`))}</span>
              {CHOICES[k] ? (
                <select
                  className="rounded-lg border border-border bg-surface px-3 py-2"
                  value={values[k] ?? ''}
                  onChange={(e) => setDraft({ ...values, [k]: e.target.value })}
                >
                  {CHOICES[k].map((v) => (
                    <option key={v} value={v}>
                      {t(adminKey(`admin.setting_choice.${k}.${v}`))}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  className="rounded-lg border border-border bg-surface px-3 py-2"
                  value={values[k] ?? ''}
                  onChange={(e) => setDraft({ ...values, [k]: e.target.value })}
                />
              )}
            </label>
          ),
        )}
      <Button type="submit" disabled={save.isPending || changed.length === 0}>
        {t('admin.save')}
      </Button>
    </form>
  );
}

/** The announcement notice in every language, English (`announcement`) as the reference; an empty language shows English. */
function AnnouncementField({ values, onChange }: { values: Record<string, string>; onChange: (key: string, value: string) => void }) {
  const { t } = useTranslation();
  const panelId = useId();
  const [lang, setLang] = useState<LangCode>('en');
  const keyOf = (code: LangCode) => (code === 'en' ? 'announcement' : announcementKey(code));
  const value = values[keyOf(lang)] ?? '';
  return (
    <fieldset className="flex flex-col gap-2 text-sm">
      <legend className="mb-1 text-muted">{t('admin.setting.announcement')}</legend>
      <LanguageTabs
        value={lang}
        onChange={setLang}
        filled={(code) => !!values[keyOf(code)]?.trim()}
        label={t('admin.languages')}
        panelId={panelId}
      />
      <div id={panelId} role="tabpanel" aria-labelledby={`${panelId}-${lang}`} className="flex flex-col gap-2">
        {lang !== 'en' && (
          <p className="rounded-lg bg-surface-2 p-2 text-muted" lang="en" dir="ltr">
            <span className="block font-medium">{t('admin.lang_reference')}</span>
            {values.announcement}
          </p>
        )}
        <textarea
          key={lang}
          aria-label={`${t('admin.setting.announcement')} · ${languageName(lang)}`}
          lang={lang === 'hk' ? 'zh-Hant-HK' : lang}
          dir={lang === 'ar' ? 'rtl' : 'ltr'}
          className="min-h-24 rounded-lg border border-border bg-surface px-3 py-2"
          value={value}
          placeholder={lang === 'en' ? undefined : t('admin.lang_empty_hint', { language: languageName(lang) })}
          onChange={(e) => onChange(keyOf(lang), e.target.value)}
        />
      </div>
    </fieldset>
  );
}

type CompanyRow = OutputOf<typeof contentApi.staffCompanyList>['data'][number];
const COMPANY_FIELDS = ['name', 'logo', 'url', 'subject', 'registered_address', 'location', 'email', 'status', 'loss_url'] as const;

function Companies() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(contentApi.staffCompanyList, { page });
  const save = useStaffMutation(contentApi.saveCompany);
  const [editing, setEditing] = useState<CompanyRow | 'new' | null>(null);
  const initial: FormValues =
    editing && editing !== 'new'
      ? { ...Object.fromEntries(COMPANY_FIELDS.map((f) => [f, String(editing[f])])), is_main: editing.is_main }
      : { ...Object.fromEntries(COMPANY_FIELDS.map((f) => [f, f === 'status' ? '0' : ''])), is_main: false };
  return (
    <div>
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-medium">{t('admin.companies')}</h2>
        <Button variant="secondary" onClick={() => setEditing('new')}>
          {t('admin.add')}
        </Button>
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.companies')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'name', label: t('admin.f.name'), render: (r) => r.name + (r.is_main ? ` · ${t('admin.f.is_main')}` : '') },
          { key: 'email', label: t('admin.f.email'), render: (r) => r.email },
          { key: 'location', label: t('admin.f.location'), render: (r) => r.location },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) => (
              <Button variant="secondary" onClick={() => setEditing(r)}>
                {t('admin.edit')}
              </Button>
            ),
          },
        ]}
      />
      {editing && (
        <RecordForm
          open
          title={t('admin.companies')}
          fields={[
            ...COMPANY_FIELDS.map((f) => ({ name: f, label: t(adminKey(`admin.f.${f}`)) })),
            { name: 'is_main', label: t('admin.f.is_main'), type: 'checkbox' },
          ]}
          initial={initial}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSubmit={(v) =>
            // The form holds every company field (RecordForm checks the required ones); the server validates again.
            save.mutate({ ...v, id: editing === 'new' ? undefined : editing.id } as Parameters<typeof save.mutate>[0], {
              onSuccess: () => setEditing(null),
            })
          }
        />
      )}
    </div>
  );
}
