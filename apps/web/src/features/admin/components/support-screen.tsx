import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { formatDateTime } from '../../../lib/format';
import * as supportApi from '@tp/contract/endpoints/support';
import { useStaffQuery, useStaffMutation } from '../api/admin-client';
import { ScreenTabs, ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';

/** Support desk: the users' conversations with replies, and the feedback inbox. */
const SUPPORT_TABS = ['chat', 'feedback'] as const;

export function SupportScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<(typeof SUPPORT_TABS)[number]>('chat');
  return (
    <section>
      <ScreenTitle>{t('admin.nav.support')}</ScreenTitle>
      <ScreenTabs tabs={SUPPORT_TABS} value={tab} onChange={setTab} label={t('admin.nav.support')} />
      {tab === 'chat' ? <Conversations /> : <Feedback />}
    </section>
  );
}

function Conversations() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [userId, setUserId] = useState<number | null>(null);
  const q = useStaffQuery(supportApi.conversations, { page });
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
      <DataTable
        {...tableState(q)}
        label={t('admin.tab.chat')}
        page={page}
        onPage={setPage}
        rowKey={(r) => r.user_id}
        columns={[
          {
            key: 'user',
            label: t('admin.f.user'),
            render: (r) => (
              <button type="button" className="text-start text-accent underline" onClick={() => setUserId(r.user_id)}>
                {r.email || r.mobile || r.uid}
                {r.unread > 0 && <span className="ms-2 rounded-full bg-down px-1.5 text-xs text-bg">{r.unread}</span>}
              </button>
            ),
          },
          { key: 'last', label: t('admin.f.content'), render: (r) => <span className="line-clamp-2">{r.last_message.body}</span> },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.last_message.created_at) },
        ]}
      />
      {userId ? <Thread userId={userId} /> : <EmptyState message={t('admin.pick_conversation')} />}
    </div>
  );
}

function Thread({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const q = useStaffQuery(supportApi.staffChatHistory, { user_id: userId, limit: 50 });
  const send = useStaffMutation(supportApi.staffSendChatMessage, 'admin.sent');
  const [body, setBody] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (body.trim()) send.mutate({ user_id: userId, body: body.trim() }, { onSuccess: () => setBody('') });
  };
  return (
    <div className="flex flex-col gap-3 rounded-xl bg-surface p-3">
      <ol className="flex max-h-[60dvh] flex-col gap-2 overflow-y-auto" aria-label={t('admin.messages')}>
        {(q.data?.data ?? []).map((m) => (
          <li
            key={m.id}
            className={`max-w-[80%] rounded-lg px-3 py-2 text-sm ${m.sender === 'staff' ? 'self-end bg-accent text-on-accent' : 'self-start bg-surface-2'}`}
          >
            {m.body && <p className="whitespace-pre-wrap">{m.body}</p>}
            {m.image_url && <img src={m.image_url} alt={t('admin.chat_image')} className="mt-1 max-h-48 rounded" />}
            <time className="mt-1 block text-xs opacity-70">{formatDateTime(m.created_at)}</time>
          </li>
        ))}
      </ol>
      <form onSubmit={submit} className="flex gap-2">
        <input
          aria-label={t('admin.reply')}
          placeholder={t('admin.reply')}
          className="min-w-0 flex-1 rounded-lg border border-border bg-bg px-3 py-2"
          value={body}
          onChange={(e) => setBody(e.target.value)}
        />
        <Button type="submit" disabled={send.isPending || !body.trim()}>
          {t('admin.send')}
        </Button>
      </form>
    </div>
  );
}

function Feedback() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useStaffQuery(supportApi.feedbackList, { page });
  const resolve = useStaffMutation(supportApi.resolveFeedback);
  return (
    <DataTable
      {...tableState(q)}
      label={t('admin.tab.feedback')}
      page={page}
      onPage={setPage}
      rowKey={(r) => r.id}
      columns={[
        { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
        { key: 'user', label: t('admin.f.user'), render: (r) => r.email || r.uid || r.contact },
        { key: 'content', label: t('admin.f.content'), render: (r) => <span className="whitespace-pre-wrap">{r.content}</span> },
        { key: 'status', label: t('admin.f.status'), render: (r) => t(adminKey(`admin.feedback_status.${r.status}`)) },
        {
          key: 'act',
          label: t('admin.f.actions'),
          render: (r) =>
            r.status === 0 && (
              <Button variant="secondary" disabled={resolve.isPending} onClick={() => resolve.mutate({ id: r.id })}>
                {t('admin.resolve')}
              </Button>
            ),
        },
      ]}
    />
  );
}
