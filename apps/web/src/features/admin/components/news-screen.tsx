import type { OutputOf } from '@tp/contract/endpoint';
import DOMPurify from 'dompurify';
import { useId, useState } from 'react';
import type { LangCode } from '@tp/contract/languages';
import { TRANSLATED_LANGS } from '@tp/contract/schemas/content';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { formatDateTime } from '../../../lib/format';
import * as contentApi from '@tp/contract/endpoints/content';
import { call } from '../../../lib/api-client';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';
import { RichTextEditor } from './rich-text-editor';
import { LanguageTabs, languageName } from './language-tabs';

type NewsRow = OutputOf<typeof contentApi.staffNewsList>['data'][number];
type NewsItem = OutputOf<typeof contentApi.staffNewsInfo>;
type Text = { title: string; desc: string; content: string };
const NEW_ITEM: NewsItem = {
  id: 0,
  title: '',
  desc: '',
  logo: '',
  content: '',
  published: true,
  created_at: '',
  category_id: 1,
  translations: {},
};

/** News (content role): list, rich-text editor with a text per language, publish, delete. */
export function NewsScreen() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(contentApi.staffNewsList, { page });
  const remove = useStaffMutation(contentApi.deleteNews);
  const [editing, setEditing] = useState<NewsItem | null>(null);
  const [deleting, setDeleting] = useState<NewsRow | null>(null);
  const [openError, setOpenError] = useState(false);
  const open = async (row: NewsRow) => {
    setOpenError(false);
    try {
      setEditing(await call(contentApi.staffNewsInfo, { id: row.id }));
    } catch {
      setOpenError(true);
    }
  };
  // The editor takes the whole screen: each language is written beside the English reference.
  if (editing) return <NewsEditor news={editing} onClose={() => setEditing(null)} />;
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <ScreenTitle>{t('admin.nav.news')}</ScreenTitle>
        <Button onClick={() => setEditing(NEW_ITEM)}>{t('admin.add')}</Button>
      </div>
      {openError && (
        <p role="alert" className="mb-3 text-sm text-down">
          {t('errors.load_failed')}
        </p>
      )}
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.news')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.id}
        columns={[
          { key: 'title', label: t('admin.f.title'), render: (r) => r.title },
          { key: 'published', label: t('admin.f.published'), render: (r) => t(r.published ? 'admin.yes' : 'admin.no') },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) => (
              <div className="flex gap-2">
                <Button variant="secondary" onClick={() => open(r)} aria-label={t('admin.edit_item', { name: r.title })}>
                  {t('admin.edit')}
                </Button>
                <Button variant="danger" onClick={() => setDeleting(r)}>
                  {t('admin.delete')}
                </Button>
              </div>
            ),
          },
        ]}
      />
      {deleting && (
        <PromptDialog
          title={t('admin.delete')}
          danger
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate({ id: deleting.id }, { onSuccess: () => setDeleting(null) })}
        >
          <p>{deleting.title}</p>
        </PromptDialog>
      )}
    </section>
  );
}

function NewsEditor({ news, onClose }: { news: NewsItem; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useStaffMutation(contentApi.saveNews);
  const panelId = useId();
  const [lang, setLang] = useState<LangCode>('en');
  const [common, setCommon] = useState({ logo: news.logo, published: news.published });
  const [texts, setTexts] = useState<Partial<Record<LangCode, Text>>>({
    ...news.translations,
    en: { title: news.title, desc: news.desc, content: news.content },
  });
  const [error, setError] = useState<string | null>(null);
  const textOf = (code: LangCode): Text => texts[code] ?? { title: '', desc: '', content: '' };
  const setText = (code: LangCode, patch: Partial<Text>) =>
    setTexts((all) => ({ ...all, [code]: { ...textOf(code), ...all[code], ...patch } }));
  const hasText = (x: Text) => !!(x.title.trim() || x.desc.trim() || stripTags(x.content).trim());
  const en = textOf('en');
  const submit = () => {
    if (!en.title.trim() || !stripTags(en.content).trim()) {
      setLang('en');
      return setError(t('admin.fill_all'));
    }
    const translations = Object.fromEntries(TRANSLATED_LANGS.filter((code) => texts[code]).map((code) => [code, textOf(code)]));
    save.mutate({ id: news.id || undefined, ...en, ...common, translations }, { onSuccess: onClose });
  };
  const current = textOf(lang);
  return (
    <section aria-labelledby={`${panelId}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id={`${panelId}-title`} className="text-xl font-semibold">
          {news.id ? t('admin.edit_item', { name: news.title }) : t('admin.add')}
        </h1>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={save.isPending} onClick={submit}>
            {t('admin.save')}
          </Button>
        </div>
      </div>
      <div className="grid gap-3 md:grid-cols-[1fr_auto] md:items-end">
        <Field label={t('admin.f.logo')} value={common.logo} onChange={(e) => setCommon({ ...common, logo: e.target.value })} />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={common.published} onChange={(e) => setCommon({ ...common, published: e.target.checked })} />
          {t('admin.f.published')}
        </label>
      </div>
      <LanguageTabs
        value={lang}
        onChange={setLang}
        filled={(code) => hasText(textOf(code))}
        label={t('admin.languages')}
        panelId={panelId}
      />
      <div id={panelId} role="tabpanel" aria-labelledby={`${panelId}-${lang}`} className={lang === 'en' ? '' : 'grid gap-4 lg:grid-cols-2'}>
        {lang !== 'en' && (
          <aside
            aria-label={t('admin.lang_reference')}
            // On a phone the reference scrolls within a third of the screen, so the fields stay near.
            tabIndex={0}
            className="flex max-h-[35dvh] flex-col gap-2 overflow-y-auto rounded-xl border border-border bg-surface-2 p-3 text-sm lg:max-h-none lg:overflow-visible"
            lang="en"
            dir="ltr"
          >
            <h2 className="font-medium text-muted">{t('admin.lang_reference')}</h2>
            <p className="font-semibold">{en.title}</p>
            {en.desc && <p className="text-muted">{en.desc}</p>}
            <div
              className="lg:max-h-[60vh] lg:overflow-y-auto leading-relaxed [&_h2]:mt-3 [&_h2]:font-semibold [&_ul]:list-disc [&_ul]:ps-5 [&_p]:mt-2"
              dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(en.content) }}
            />
          </aside>
        )}
        <div key={lang} lang={lang === 'hk' ? 'zh-Hant-HK' : lang} dir={lang === 'ar' ? 'rtl' : 'ltr'} className="flex flex-col gap-3">
          {lang !== 'en' && !hasText(current) && (
            <p className="text-sm text-muted">{t('admin.lang_empty_hint', { language: languageName(lang) })}</p>
          )}
          <Field
            label={`${t('admin.f.title')} · ${languageName(lang)}`}
            value={current.title}
            error={lang === 'en' ? error : null}
            onChange={(e) => setText(lang, { title: e.target.value })}
          />
          <Field
            label={`${t('admin.f.desc')} · ${languageName(lang)}`}
            value={current.desc}
            onChange={(e) => setText(lang, { desc: e.target.value })}
          />
          <RichTextEditor
            label={`${t('admin.f.content')} · ${languageName(lang)}`}
            value={current.content}
            onChange={(content) => setText(lang, { content })}
          />
        </div>
      </div>
    </section>
  );
}

/** The text of an HTML fragment (an editor left with only empty paragraphs counts as empty). */
const stripTags = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ');
