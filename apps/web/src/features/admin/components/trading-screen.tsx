import { useState } from 'react';
import type { AdminOrder, AdminSymbol } from '@tp/contract/schemas/admin';
import * as api from '@tp/contract/endpoints/admin';
import { useTranslation } from 'react-i18next';
import { dec } from '@tp/contract/decimal';
import { formatPoints, isolateLtr } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { adminKey } from './dynamic-key';
import { Button } from '../../../components/ui/button';
import { useCategories } from '../../../api/get-categories';
import { useStaffMutation, useStaffQuery } from '../api/admin-client';
import { ScreenTitle } from './screen-header';
import { DataTable, tableState } from './data-table';
import { FeedHealth } from './feed-health';
import { PromptDialog } from './prompt-dialog';
import { type FormField, type FormValues, RecordForm } from './record-form';
import { OrdersTable } from './user-detail';
import { type ScheduleDraft, ScheduleEditor } from './schedule-editor';
import { fromWeek, toWeek, validateWeek, weekIsValid } from '../lib/schedule';

const NUMBER_FIELDS = [
  'price_precision',
  'contract_size',
  'min_lots',
  'max_lots',
  'step',
  'spread',
  'deviation_pct',
  'max_quote_age_sec',
  'fixed_margin',
  'sort',
  'swap_long',
  'swap_short',
] as const;

/** Triple-day choices: none (every day once), then Sunday to Saturday named in the staff's language. */
const tripleDays = (none: string): [string, string][] => [
  ['-1', none],
  ...[0, 1, 2, 3, 4, 5, 6].map((d): [string, string] => [
    String(d),
    new Intl.DateTimeFormat(currentLocale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2023, 0, 1 + d)),
  ]),
];

/** Trading setup (risk): symbols and their terms, categories, open positions with a staff close. */
export function TradingScreen() {
  const { t } = useTranslation();
  const symbols = useStaffQuery(api.symbols, undefined);
  const categories = useStaffQuery(api.categories, undefined);
  // Category names in the staff member's language, as the trader app shows them; the stored key until they load.
  const names = useCategories();
  const categoryName = (id: number, key: string) => names.data?.find((c) => c.Id === id)?.NameShowTrans ?? key;
  // The fee type decides what a symbol's fee rate is counted in.
  const fees = useStaffQuery(api.fees, undefined);
  const feeUnit = fees.data ? t(adminKey(`admin.units.fee.${fees.data.trade_fee_type}`)) : null;
  const swapUnit = (type: string | number) => (String(type) === '0' ? null : t(adminKey(`admin.units.swap.${type}`)));
  // A stored rate without its trailing zeros (5, not 5.00000000), kept left-to-right as a swap is often negative.
  const rate = (value: string) => isolateLtr(dec(value).toString());
  const withUnit = (value: string, unit: string | null) => (unit ? t('admin.units.value', { value, unit }) : value);
  const save = useStaffMutation(api.symbolSave);
  const saveCategory = useStaffMutation(api.categorySave);
  const [editing, setEditingSymbol] = useState<AdminSymbol | null>(null);
  const [schedule, setSchedule] = useState<ScheduleDraft>({ alwaysOpen: true, week: toWeek([]) });
  const [showScheduleErrors, setShowScheduleErrors] = useState(false);
  const scheduleErrors = validateWeek(schedule.week);
  const setEditing = (symbol: AdminSymbol | null) => {
    if (symbol) setSchedule({ alwaysOpen: symbol.schedule.length === 0, week: toWeek(symbol.schedule) });
    setShowScheduleErrors(false);
    setEditingSymbol(symbol);
  };
  const [newCategory, setNewCategory] = useState(false);
  const [page, setPage] = useState(1);
  const positions = useStaffQuery(api.positions, { page });
  const close = useStaffMutation(api.positionClose);
  const [closing, setClosing] = useState<AdminOrder | null>(null);

  const fields: FormField[] = [
    { name: 'show_code', label: t('admin.f.show_code') },
    {
      name: 'category_id',
      label: t('admin.f.category'),
      type: 'select',
      options: (categories.data ?? []).map((c) => [String(c.id), categoryName(c.id, c.key)]),
    },
    ...NUMBER_FIELDS.map((name): FormField => ({
      name,
      label: t(adminKey(`admin.f.${name}`)),
      type: 'number',
      ...(name === 'swap_long' || name === 'swap_short' ? { unit: (values) => swapUnit(String(values.swap_type)) } : {}),
    })),
    {
      name: 'margin_mode',
      label: t('admin.f.margin_mode'),
      type: 'select',
      options: [
        ['1', t('admin.margin_mode.1')],
        ['2', t('admin.margin_mode.2')],
      ],
    },
    {
      name: 'swap_type',
      label: t('admin.f.swap_type'),
      type: 'select',
      options: (['0', '1', '2'] as const).map((v): [string, string] => [v, t(adminKey(`admin.swap_type.${v}`))]),
    },
    { name: 'swap_triple_day', label: t('admin.f.swap_triple_day'), type: 'select', options: tripleDays(t('admin.swap_no_triple')) },
    { name: 'leverages', label: t('admin.f.leverages') },
    {
      name: 'schedule',
      label: t('admin.f.schedule'),
      render: () => (
        <ScheduleEditor
          value={schedule}
          onChange={setSchedule}
          errors={scheduleErrors}
          showErrors={showScheduleErrors}
          onBlur={() => setShowScheduleErrors(true)}
          timezone={editing?.timezone ?? 'UTC'}
        />
      ),
    },
    { name: 'holidays', label: t('admin.f.holidays') },
    { name: 'visible', label: t('admin.f.visible'), type: 'checkbox' },
    { name: 'tradable', label: t('admin.f.tradable'), type: 'checkbox' },
  ];
  const initialOf = (s: AdminSymbol): FormValues => ({
    ...Object.fromEntries(NUMBER_FIELDS.map((n) => [n, String(s[n])])),
    show_code: s.show_code,
    category_id: String(s.category_id),
    margin_mode: String(s.margin_mode),
    swap_type: String(s.swap_type),
    swap_triple_day: String(s.swap_triple_day),
    leverages: s.leverages.join(','),
    holidays: s.holidays.join(','),
    visible: s.visible,
    tradable: s.tradable,
  });
  const submit = (v: FormValues) => {
    if (!schedule.alwaysOpen && !weekIsValid(scheduleErrors)) {
      setShowScheduleErrors(true);
      // The errors show on the next render: focus moves to the first wrong range, which names its error.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[role="dialog"] [aria-invalid="true"]')?.focus());
      return;
    }
    // Stored as before: [{day, open, close}] in the symbol's time zone; none means open around the clock.
    const sessions = schedule.alwaysOpen ? [] : fromWeek(schedule.week);
    const holidays = String(v.holidays)
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean);
    save.mutate(
      { ...v, id: editing!.id, schedule: JSON.stringify(sessions), holidays: JSON.stringify(holidays) },
      { onSuccess: () => setEditing(null) },
    );
  };

  return (
    <section className="flex flex-col gap-6">
      <ScreenTitle>{t('admin.nav.trading')}</ScreenTitle>
      <div>
        <h2 className="mb-2 font-medium">{t('admin.symbols')}</h2>
        <DataTable
          {...tableState(symbols)}
          label={t('admin.symbols')}
          rowKey={(r) => r.id}
          columns={[
            { key: 'code', label: t('admin.f.symbol'), render: (r) => r.show_code },
            {
              key: 'category',
              label: t('admin.f.category'),
              render: (r) => categoryName(r.category_id, categories.data?.find((c) => c.id === r.category_id)?.key ?? ''),
            },
            {
              key: 'spread',
              label: t('admin.f.spread'),
              render: (r) => t('orders.points_value', { points: formatPoints(r.spread, r.price_precision) }),
            },
            { key: 'lots', label: t('admin.f.lots'), render: (r) => `${r.min_lots} – ${r.max_lots} / ${r.step}` },
            { key: 'size', label: t('admin.f.contract_size'), render: (r) => r.contract_size },
            {
              key: 'fee',
              label: feeUnit ? t('admin.units.fee_rate', { unit: feeUnit }) : t('admin.f.fee_rate'),
              render: (r) => <span data-testid="symbol-fee">{withUnit(rate(r.fee_rate), feeUnit)}</span>,
            },
            {
              key: 'swap',
              label: t('admin.f.swap'),
              render: (r) =>
                r.swap_type ? (
                  <span data-testid="symbol-swap">{withUnit(`${rate(r.swap_long)} / ${rate(r.swap_short)}`, swapUnit(r.swap_type))}</span>
                ) : (
                  '—'
                ),
            },
            { key: 'lev', label: t('admin.f.leverages'), render: (r) => r.leverages.join(', ') },
            {
              key: 'flags',
              label: t('admin.f.status'),
              render: (r) => [r.visible ? t('admin.f.visible') : '', r.tradable ? t('admin.f.tradable') : ''].filter(Boolean).join(' · '),
            },
            {
              key: 'act',
              label: t('admin.f.actions'),
              render: (r) => (
                <Button variant="secondary" onClick={() => setEditing(r)} aria-label={t('admin.edit_item', { name: r.show_code })}>
                  {t('admin.edit')}
                </Button>
              ),
            },
          ]}
        />
      </div>
      <FeedHealth />
      <div>
        <div className="mb-2 flex items-center justify-between">
          <h2 className="font-medium">{t('admin.categories')}</h2>
          <Button variant="secondary" onClick={() => setNewCategory(true)}>
            {t('admin.add')}
          </Button>
        </div>
        <DataTable
          {...tableState(categories)}
          label={t('admin.categories')}
          rowKey={(r) => r.id}
          columns={[
            { key: 'id', label: t('admin.f.id'), render: (r) => r.id },
            { key: 'name', label: t('admin.f.name'), render: (r) => categoryName(r.id, r.key) },
            { key: 'key', label: t('admin.f.key'), render: (r) => <code dir="ltr">{r.key}</code> },
            { key: 'sort', label: t('admin.f.sort'), render: (r) => r.sort },
          ]}
        />
      </div>
      <div>
        <h2 className="mb-2 font-medium">{t('admin.open_positions')}</h2>
        <OrdersTable {...tableState(positions)} page={page} onPage={setPage} onClose={setClosing} />
      </div>
      {editing && (
        <RecordForm
          open
          title={t('admin.edit_item', { name: editing.show_code })}
          fields={fields}
          initial={initialOf(editing)}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSubmit={submit}
        />
      )}
      {newCategory && (
        <RecordForm
          open
          title={t('admin.categories')}
          fields={[
            { name: 'key', label: t('admin.f.key') },
            { name: 'sort', label: t('admin.f.sort'), type: 'number' },
          ]}
          initial={{ key: '', sort: '0' }}
          busy={saveCategory.isPending}
          onClose={() => setNewCategory(false)}
          onSubmit={(v) => saveCategory.mutate({ key: String(v.key ?? ''), sort: v.sort }, { onSuccess: () => setNewCategory(false) })}
        />
      )}
      {closing && (
        <PromptDialog
          title={t('admin.close_position')}
          danger
          busy={close.isPending}
          onCancel={() => setClosing(null)}
          onConfirm={() => close.mutate({ id: closing.id }, { onSuccess: () => setClosing(null) })}
        >
          <p>{t('admin.close_position_hint', { id: closing.id, symbol: closing.symbol, user: closing.user })}</p>
        </PromptDialog>
      )}
    </section>
  );
}
