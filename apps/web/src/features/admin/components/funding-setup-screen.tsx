import { useState } from 'react';
import type { InputOf } from '@tp/contract/endpoint';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { PromptDialog } from './prompt-dialog';
import { type FormField, type FormValues, RecordForm } from './record-form';

type Row = Record<string, string | number | boolean> & { id: number };

/** Each funding table's list, save and delete. */
const TABLES = {
  deposit_networks: { list: api.depositNetworks, save: api.depositNetworkSave, remove: api.depositNetworkDelete },
  bank_wires: { list: api.bankWires, save: api.bankWireSave, remove: api.bankWireDelete },
  withdraw_currencies: { list: api.withdrawCurrencies, save: api.withdrawCurrencySave, remove: api.withdrawCurrencyDelete },
} as const;

interface Kind {
  table: keyof typeof TABLES;
  title: string;
  fields: FormField[];
  /** Columns shown in the list (field names). */
  columns: string[];
}

/** Funding setup (finance): deposit networks, bank wire accounts and withdraw currencies. */
export function FundingSetupScreen() {
  const { t } = useTranslation();
  const f = (name: string, type?: FormField['type'], options?: [string, string][]): FormField => ({
    name,
    label: t(adminKey(`admin.f.${name}`)),
    type,
    options,
  });
  const kinds: Kind[] = [
    {
      table: 'deposit_networks',
      title: t('admin.deposit_networks'),
      fields: [f('currency_code'), f('protocol_code'), f('address'), f('usd_per_unit', 'number'), f('enabled', 'checkbox')],
      columns: ['currency_code', 'protocol_code', 'address', 'usd_per_unit', 'enabled'],
    },
    {
      table: 'bank_wires',
      title: t('admin.bank_wires'),
      fields: [
        f('bank_name'),
        f('bank_address'),
        f('bank_swift'),
        f('payee_name'),
        f('payee_account'),
        f('bank_remark'),
        f('currency'),
        f('usd_per_unit', 'number'),
        f('enabled', 'checkbox'),
      ],
      columns: ['bank_name', 'payee_name', 'payee_account', 'currency', 'usd_per_unit', 'enabled'],
    },
    {
      table: 'withdraw_currencies',
      title: t('admin.withdraw_currencies'),
      fields: [
        f('code'),
        f('protocol'),
        f('type', 'select', [
          ['1', t('admin.withdraw_type.1')],
          ['2', t('admin.withdraw_type.2')],
        ]),
        f('fee_type', 'select', [
          ['1', t('admin.fee_type.1')],
          ['2', t('admin.fee_type.2')],
        ]),
        f('draw_rate', 'number'),
        f('units_per_usd', 'number'),
        f('decimals', 'number'),
        f('min_amount', 'number'),
        f('max_amount', 'number'),
        f('address_pattern'),
        f('enabled', 'checkbox'),
      ],
      columns: ['code', 'protocol', 'type', 'fee_type', 'draw_rate', 'units_per_usd', 'decimals', 'min_amount', 'max_amount', 'enabled'],
    },
  ];
  return (
    <section className="flex flex-col gap-8">
      <ScreenTitle>{t('admin.nav.funding')}</ScreenTitle>
      {kinds.map((k) => (
        <FundingTable key={k.table} kind={k} />
      ))}
    </section>
  );
}

function FundingTable({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const table = TABLES[kind.table];
  const list = useStaffQuery(table.list, undefined);
  // The three tables share one screen: their rows are shown and edited field by field, by name.
  const q = { ...list, data: list.data as Row[] | undefined };
  const save = useStaffMutation(table.save);
  const remove = useStaffMutation(table.remove);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const show = (row: Row, name: string) => {
    const v = row[name];
    if (typeof v === 'boolean') return t(v ? 'admin.yes' : 'admin.no');
    if (name === 'type') return t(adminKey(`admin.withdraw_type.${v}`));
    if (name === 'fee_type') return t(adminKey(`admin.fee_type.${v}`));
    return String(v ?? '');
  };
  const initial: FormValues =
    editing && editing !== 'new'
      ? Object.fromEntries(
          kind.fields.map((fl) => [
            fl.name,
            typeof editing[fl.name] === 'boolean' ? (editing[fl.name] as boolean) : String(editing[fl.name] ?? ''),
          ]),
        )
      : Object.fromEntries(
          kind.fields.map((fl) => [fl.name, fl.type === 'checkbox' ? true : fl.type === 'select' ? (fl.options?.[0]?.[0] ?? '') : '']),
        );
  return (
    <div>
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-medium">{kind.title}</h2>
        <Button variant="secondary" onClick={() => setEditing('new')} aria-label={`${t('admin.add')} · ${kind.title}`}>
          {t('admin.add')}
        </Button>
      </div>
      <DataTable
        {...tableState(q)}
        label={kind.title}
        rowKey={(r) => r.id}
        columns={[
          ...kind.columns.map((name) => ({
            key: name,
            label: t(adminKey(`admin.f.${name}`)),
            render: (r: Row) => <span className="break-all">{show(r, name)}</span>,
          })),
          {
            key: 'act',
            label: t('admin.f.actions'),
            render: (r: Row) => (
              <div className="flex gap-2">
                <Button variant="secondary" onClick={() => setEditing(r)}>
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
      {editing && (
        <RecordForm
          open
          title={kind.title}
          fields={kind.fields}
          initial={initial}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSubmit={(v) => save.mutate({ ...v, id: editing === 'new' ? undefined : editing.id } as InputOf<typeof table.save>, { onSuccess: () => setEditing(null) })}
        />
      )}
      {deleting && (
        <PromptDialog
          title={t('admin.delete')}
          danger
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove.mutate({ id: deleting.id }, { onSuccess: () => setDeleting(null) })}
        >
          <p>{t('admin.delete_hint')}</p>
        </PromptDialog>
      )}
    </div>
  );
}
