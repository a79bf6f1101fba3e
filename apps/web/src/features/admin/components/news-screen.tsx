import type { OutputOf } from '@tp/contract/endpoint';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { formatDateTime } from '../../../lib/format';
import * as contentApi from '@tp/contract/endpoints/content';
import { call } from '../../../lib/api-client';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';
import { RichTextEditor } from './rich-text-editor';

type NewsRow = Omit<OutputOf<typeof contentApi.staffNewsList>['data'][number], 'category_id'> & { category_id?: number; content?: string };

/** News (content role): list, rich-text editor, publish, delete. */
export function NewsScreen() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(contentApi.staffNewsList, { page });
  const remove = useStaffMutation(contentApi.deleteNews);
  const [editing, setEditing] = useState<NewsRow | null>(null);
  const [deleting, setDeleting] = useState<NewsRow | null>(null);
  const open = async (row: NewsRow) => setEditing(await call(contentApi.staffNewsInfo, { id: row.id }));
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <ScreenTitle>{t('admin.nav.news')}</ScreenTitle>
        <Button onClick={() => setEditing({ id: 0, title: '', desc: '', logo: '', content: '', published: true, created_at: '' })}>
          {t('admin.add')}
        </Button>
      </div>
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
      {editing && <NewsEditor news={editing} onClose={() => setEditing(null)} />}
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

function NewsEditor({ news, onClose }: { news: NewsRow; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useStaffMutation(contentApi.saveNews);
  const [draft, setDraft] = useState({
    title: news.title,
    desc: news.desc,
    logo: news.logo,
    content: news.content ?? '',
    published: news.published,
  });
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!draft.title.trim() || !draft.content.trim()) return setError(t('admin.fill_all'));
    save.mutate({ ...draft, id: news.id || undefined }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} title={news.id ? t('admin.edit_item', { name: news.title }) : t('admin.add')}>
      <div className="flex flex-col gap-3">
        <Field
          label={t('admin.f.title')}
          value={draft.title}
          error={error}
          onChange={(e) => setDraft({ ...draft, title: e.target.value })}
        />
        <Field label={t('admin.f.desc')} value={draft.desc} onChange={(e) => setDraft({ ...draft, desc: e.target.value })} />
        <Field label={t('admin.f.logo')} value={draft.logo} onChange={(e) => setDraft({ ...draft, logo: e.target.value })} />
        <RichTextEditor label={t('admin.f.content')} value={draft.content} onChange={(content) => setDraft((d) => ({ ...d, content }))} />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={draft.published} onChange={(e) => setDraft({ ...draft, published: e.target.checked })} />
          {t('admin.f.published')}
        </label>
        <Button block disabled={save.isPending} onClick={submit}>
          {t('admin.save')}
        </Button>
      </div>
    </Dialog>
  );
}
