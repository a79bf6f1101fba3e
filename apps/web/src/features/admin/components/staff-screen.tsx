import { useState } from 'react';
import { STAFF_ROLES, type Staff } from '@tp/contract/schemas/admin';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';
import { type FormValues, RecordForm } from './record-form';

const text = (v: FormValues, name: string) => String(v[name] ?? '');
const rolesOf = (v: FormValues) => STAFF_ROLES.filter((r) => v[`role_${r}`]);

/** Staff accounts (admin): create with roles, change roles, disable or enable. */
export function StaffScreen() {
  const { t } = useTranslation();
  const q = useStaffQuery(api.staffList, undefined);
  const create = useStaffMutation(api.staffCreate);
  const roles = useStaffMutation(api.staffRoles);
  const status = useStaffMutation(api.staffStatus);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Staff | null>(null);
  const [toggling, setToggling] = useState<Staff | null>(null);
  const roleFields = STAFF_ROLES.map((r) => ({ name: `role_${r}`, label: t(adminKey(`admin.role.${r}`)), type: 'checkbox' as const }));
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <ScreenTitle>{t('admin.nav.staff')}</ScreenTitle>
        <Button onClick={() => setCreating(true)}>{t('admin.add')}</Button>
      </div>
      <DataTable
        {...tableState(q)}
        label={t('admin.nav.staff')}
        rowKey={(r) => r.id}
        columns={[
          { key: 'email', label: t('admin.f.email'), render: (r) => r.email },
          { key: 'name', label: t('admin.f.name'), render: (r) => r.name },
          { key: 'roles', label: t('admin.f.roles'), render: (r) => r.roles.map((x) => t(adminKey(`admin.role.${x}`))).join(', ') },
          { key: 'totp', label: t('admin.f.totp_enabled'), render: (r) => t(r.totp_enabled ? 'admin.yes' : 'admin.no') },
          { key: 'status', label: t('admin.f.status'), render: (r) => t(adminKey(`admin.user_status.${r.status}`)) },
          { key: 'time', label: t('admin.f.time'), render: (r) => formatDateTime(r.created_at) },
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r) => (
              <div className="flex gap-2">
                <Button variant="secondary" onClick={() => setEditing(r)}>
                  {t('admin.edit')}
                </Button>
                <Button variant={r.status ? 'danger' : 'primary'} onClick={() => setToggling(r)}>
                  {t(r.status ? 'admin.disable' : 'admin.enable')}
                </Button>
              </div>
            ),
          },
        ]}
      />
      {creating && (
        <RecordForm
          open
          title={t('admin.add')}
          fields={[
            { name: 'email', label: t('admin.f.email') },
            { name: 'name', label: t('admin.f.name') },
            { name: 'password', label: t('admin.f.password'), type: 'password' },
            ...roleFields,
          ]}
          initial={{ email: '', name: '', password: '' }}
          busy={create.isPending}
          onClose={() => setCreating(false)}
          onSubmit={(v) =>
            create.mutate(
              { email: text(v, 'email'), name: text(v, 'name'), password: text(v, 'password'), roles: rolesOf(v) },
              { onSuccess: () => setCreating(false) },
            )
          }
        />
      )}
      {editing && (
        <RecordForm
          open
          title={t('admin.edit_item', { name: editing.email })}
          fields={roleFields}
          initial={Object.fromEntries(STAFF_ROLES.map((r) => [`role_${r}`, editing.roles.includes(r)]))}
          busy={roles.isPending}
          onClose={() => setEditing(null)}
          onSubmit={(v) => roles.mutate({ id: editing.id, roles: rolesOf(v) }, { onSuccess: () => setEditing(null) })}
        />
      )}
      {toggling && (
        <PromptDialog
          title={t(toggling.status ? 'admin.disable' : 'admin.enable')}
          danger={Boolean(toggling.status)}
          busy={status.isPending}
          onCancel={() => setToggling(null)}
          onConfirm={() => status.mutate({ id: toggling.id, status: toggling.status ? 0 : 1 }, { onSuccess: () => setToggling(null) })}
        >
          <p>{toggling.email}</p>
        </PromptDialog>
      )}
    </section>
  );
}
