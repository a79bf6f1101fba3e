import { useEffect, useRef, useState } from 'react';
import { useFieldArray, useForm, type Control, type UseFormRegister } from 'react-hook-form';
import * as api from '@tp/contract/endpoints/admin';
import {
  COMMISSION_TYPES,
  GROUP_BOOKS,
  GROUP_KINDS,
  GROUP_PROFILES,
  STOP_OUT_POLICIES,
  type AccountGroup,
  type CommissionType,
  type GroupBook,
  type GroupKind,
  type GroupProfile,
  type GroupSymbol,
  type StopOutPolicy,
} from '@tp/contract/schemas/admin';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { dec } from '@tp/contract/decimal';
import { formatNumber } from '../../../lib/format';
import { isPendingChange, useStaffMutation, useStaffQuery } from '../api/admin-client';
import { DataTable, tableState } from './data-table';
import { adminKey } from './dynamic-key';
import { ScreenTitle } from './screen-header';

interface TierRow {
  up_to_lots: string;
  leverage: string;
}
interface SymbolRow {
  symbol_id: number;
  code: string;
  enabled: boolean;
  spread_markup_points: string;
  leverages: string;
  max_lots: string;
  commission_type: '' | CommissionType;
  commission_rate: string;
  swap_free: boolean;
  swap_long: string;
  swap_short: string;
  deviation_points: string;
  hedge_threshold_lots: string;
  tiers: TierRow[];
}
interface GroupForm {
  name: string;
  kind: GroupKind;
  profile: GroupProfile;
  margin_call_level: string;
  stop_out_level: string;
  stop_out_policy: StopOutPolicy;
  max_open_positions: string;
  max_pending_orders: string;
  /** '' the house's setting, 'on' or 'off'. */
  nbp: '' | 'on' | 'off';
  book: GroupBook;
  is_default: boolean;
  symbols: SymbolRow[];
}

const NEW_GROUP: GroupForm = {
  name: '',
  kind: 'real',
  profile: 'none',
  margin_call_level: '',
  stop_out_level: '',
  stop_out_policy: 'largest_loss',
  max_open_positions: '0',
  max_pending_orders: '0',
  nbp: '',
  book: 'B',
  is_default: false,
  symbols: [],
};

const rowOf = (s: GroupSymbol): SymbolRow => ({
  symbol_id: s.symbol_id,
  code: s.code,
  enabled: s.enabled,
  spread_markup_points: String(s.spread_markup_points),
  leverages: s.leverages.join(', '),
  max_lots: s.max_lots ?? '',
  commission_type: s.commission_type ?? '',
  commission_rate: s.commission_rate,
  swap_free: s.swap_free,
  swap_long: s.swap_long ?? '',
  swap_short: s.swap_short ?? '',
  deviation_points: s.deviation_points === null ? '' : String(s.deviation_points),
  hedge_threshold_lots: s.hedge_threshold_lots ?? '',
  tiers: s.leverage_tiers.map((tier) => ({ up_to_lots: tier.up_to_lots ?? '', leverage: String(tier.leverage) })),
});

const formOf = (g: AccountGroup): GroupForm => ({
  name: g.name,
  kind: g.kind,
  profile: g.profile,
  margin_call_level: g.margin_call_level,
  stop_out_level: g.stop_out_level,
  stop_out_policy: g.stop_out_policy,
  max_open_positions: String(g.max_open_positions),
  max_pending_orders: String(g.max_pending_orders),
  nbp: g.negative_balance_protection === null ? '' : g.negative_balance_protection ? 'on' : 'off',
  book: g.book,
  is_default: g.is_default,
  symbols: g.symbols.map(rowOf),
});

/** A comma- or space-separated list of whole numbers ('' for none); a word that is not one is kept as is for the server to refuse. */
const intList = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((v) => (/^\d+$/.test(v) ? Number(v) : v));

/** The save's input: every field of the group, its symbols replacing the group's rows. */
const inputOf = (v: GroupForm, id: number | null) => ({
  ...(id ? { id } : { kind: v.kind }),
  name: v.name.trim(),
  profile: v.profile,
  margin_call_level: v.margin_call_level.trim(),
  stop_out_level: v.stop_out_level.trim(),
  stop_out_policy: v.stop_out_policy,
  max_open_positions: v.max_open_positions.trim() || '0',
  max_pending_orders: v.max_pending_orders.trim() || '0',
  negative_balance_protection: v.nbp === '' ? '' : v.nbp === 'on' ? 'true' : 'false',
  book: v.book,
  is_default: v.is_default ? 'true' : 'false',
  symbols: JSON.stringify(
    v.symbols.map((s) => ({
      symbol_id: s.symbol_id,
      enabled: s.enabled,
      spread_markup_points: s.spread_markup_points.trim() || '0',
      leverages: intList(s.leverages),
      max_lots: s.max_lots.trim(),
      commission_type: s.commission_type,
      commission_rate: s.commission_rate.trim() || '0',
      swap_free: s.swap_free,
      swap_long: s.swap_long.trim(),
      swap_short: s.swap_short.trim(),
      deviation_points: s.deviation_points.trim(),
      hedge_threshold_lots: s.hedge_threshold_lots.trim(),
      leverage_tiers: s.tiers.map((tier) => ({ up_to_lots: tier.up_to_lots.trim(), leverage: tier.leverage.trim() })),
    })),
  ),
});

const inputClass = 'w-full min-w-0 rounded-lg border border-border bg-surface px-3 py-2 text-text outline-none focus:border-accent';

/**
 * Account groups (risk): each group's account-wide terms and members, and an editor for a group and its
 * per-symbol terms. Under four-eyes a save is a proposal: the screen says so and links to the Changes screen.
 */
export function GroupsScreen() {
  const { t } = useTranslation();
  const groups = useStaffQuery(api.groupsList, undefined);
  const [editing, setEditing] = useState<AccountGroup | 'new' | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const yesNo = (v: boolean | null) => (v === null ? t('admin.groups.house') : t(v ? 'admin.yes' : 'admin.no'));
  const level = (v: string) => (v === '' ? t('admin.groups.house') : `${dec(v).toString()}%`);
  const cap = (v: number) => (v === 0 ? t('admin.groups.house') : formatNumber(v, 0));
  const open = (g: AccountGroup | 'new') => (setPending(null), setEditing(g));

  return (
    <section className="flex flex-col gap-4">
      <ScreenTitle>{t('admin.nav.groups')}</ScreenTitle>
      <p className="max-w-3xl text-sm text-muted">{t('admin.groups.intro')}</p>
      {pending !== null && (
        <p role="status" className="max-w-3xl rounded-lg border border-accent px-3 py-2 text-sm">
          {t('admin.groups.sent', { id: pending })}{' '}
          <Link to="/admin/changes" className="font-medium text-accent underline">
            {t('admin.groups.open_changes')}
          </Link>
        </p>
      )}
      <div>
        <Button variant="secondary" onClick={() => open('new')}>
          {t('admin.groups.new')}
        </Button>
      </div>
      <DataTable
        {...tableState(groups)}
        label={t('admin.nav.groups')}
        rowKey={(g) => g.id}
        columns={[
          {
            key: 'name',
            label: t('admin.f.name'),
            render: (g) => (
              <span className="flex flex-col items-start">
                {/* The name opens the group's editor (the table stays within a desktop's width without an actions column). */}
                <button
                  type="button"
                  className="text-start font-medium text-accent underline"
                  onClick={() => open(g)}
                  aria-label={t('admin.edit_item', { name: g.name })}
                >
                  <bdi>{g.name}</bdi>
                </button>
                {g.is_default && <span className="text-xs text-muted">{t('admin.groups.default_flag')}</span>}
              </span>
            ),
          },
          { key: 'kind', label: t('admin.groups.f.kind'), render: (g) => t(adminKey(`admin.groups.kind.${g.kind}`)) },
          { key: 'profile', label: t('admin.groups.f.profile'), render: (g) => t(adminKey(`admin.groups.profile.${g.profile}`)) },
          {
            key: 'levels',
            label: t('admin.groups.f.levels'),
            render: (g) => (
              <span className="flex flex-col">
                <span className="whitespace-nowrap tabular-nums">
                  {g.margin_call_level === '' && g.stop_out_level === ''
                    ? t('admin.groups.house')
                    : `${level(g.margin_call_level)} / ${level(g.stop_out_level)}`}
                </span>
                <span className="text-xs text-muted">{t(adminKey(`admin.groups.policy.${g.stop_out_policy}`))}</span>
              </span>
            ),
          },
          {
            key: 'caps',
            label: t('admin.groups.f.caps'),
            render: (g) => (
              <span className="tabular-nums">
                {g.max_open_positions === 0 && g.max_pending_orders === 0
                  ? t('admin.groups.house')
                  : `${cap(g.max_open_positions)} / ${cap(g.max_pending_orders)}`}
              </span>
            ),
          },
          { key: 'nbp', label: t('admin.groups.f.nbp'), render: (g) => yesNo(g.negative_balance_protection) },
          { key: 'book', label: t('admin.groups.f.book'), render: (g) => t(adminKey(`admin.groups.book.${g.book}`)) },
          { key: 'members', label: t('admin.groups.f.members'), className: 'tabular-nums', render: (g) => formatNumber(g.members, 0) },
        ]}
      />
      {editing && (
        <GroupEditor
          key={editing === 'new' ? 'new' : `${editing.id}-${editing.version}`}
          group={editing === 'new' ? null : editing}
          onDone={(pendingId) => (setEditing(null), setPending(pendingId))}
          onCancel={() => setEditing(null)}
        />
      )}
    </section>
  );
}

function GroupEditor({
  group,
  onDone,
  onCancel,
}: {
  group: AccountGroup | null;
  onDone: (pendingId: number | null) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const symbols = useStaffQuery(api.symbols, undefined);
  const save = useStaffMutation(api.groupSave);
  const heading = useRef<HTMLHeadingElement>(null);
  const { register, control, handleSubmit, watch, formState } = useForm<GroupForm>({
    defaultValues: group ? formOf(group) : NEW_GROUP,
  });
  const rows = useFieldArray({ control, name: 'symbols' });
  const [adding, setAdding] = useState('');
  useEffect(() => heading.current?.focus(), []);
  const { errors } = formState;
  const title = group ? t('admin.edit_item', { name: group.name }) : t('admin.groups.new');
  const used = new Set(watch('symbols').map((s) => s.symbol_id));
  const addable = (symbols.data ?? []).filter((s) => !used.has(s.id));
  const add = () => {
    const symbol = addable.find((s) => String(s.id) === adding) ?? addable[0];
    if (!symbol) return;
    rows.append({
      symbol_id: symbol.id,
      code: symbol.code,
      enabled: true,
      spread_markup_points: '0',
      leverages: '',
      max_lots: '',
      commission_type: '',
      commission_rate: '0',
      swap_free: false,
      swap_long: '',
      swap_short: '',
      deviation_points: '',
      hedge_threshold_lots: '',
      tiers: [],
    });
    setAdding('');
  };
  // A failed save keeps every field as typed: the form is only left once the server accepts it.
  const submit = handleSubmit((values) =>
    save.mutate(inputOf(values, group?.id ?? null), {
      onSuccess: (data) => onDone(isPendingChange(data) ? data.pending_change_id : null),
    }),
  );
  const select = (name: Parameters<typeof register>[0], label: string, options: readonly string[], optionKey: string) => (
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-muted">{label}</span>
      <select className={inputClass} {...register(name)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {t(adminKey(`${optionKey}.${o}`))}
          </option>
        ))}
      </select>
    </label>
  );
  const text = (name: Parameters<typeof register>[0], label: string, unit?: string, hint?: string) => (
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-muted">{label}</span>
      <span className="flex items-center gap-2">
        <input className={inputClass} inputMode="decimal" autoComplete="off" {...register(name)} />
        {unit && <span className="shrink-0 text-muted">{unit}</span>}
      </span>
      {hint && <span className="text-xs text-muted">{hint}</span>}
    </label>
  );

  return (
    <form
      noValidate
      aria-labelledby="group-editor-title"
      onSubmit={(e) => void submit(e)}
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4"
    >
      <h2 id="group-editor-title" ref={heading} tabIndex={-1} className="font-medium outline-none">
        {title}
      </h2>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted">{t('admin.f.name')}</span>
          <input
            className={inputClass}
            autoComplete="off"
            maxLength={100}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? 'group-name-error' : undefined}
            {...register('name', { validate: (v) => Boolean(v.trim()) || t('admin.groups.name_required') })}
          />
          {errors.name?.message && (
            <span id="group-name-error" role="alert" className="text-xs text-down">
              {errors.name.message}
            </span>
          )}
        </label>
        {group ? (
          <div className="flex flex-col gap-1 text-sm">
            <span className="text-muted">{t('admin.groups.f.kind')}</span>
            <span className="py-2">{t(adminKey(`admin.groups.kind.${group.kind}`))}</span>
          </div>
        ) : (
          select('kind', t('admin.groups.f.kind'), GROUP_KINDS, 'admin.groups.kind')
        )}
        {select('profile', t('admin.groups.f.profile'), GROUP_PROFILES, 'admin.groups.profile')}
        {select('book', t('admin.groups.f.book'), GROUP_BOOKS, 'admin.groups.book')}
        {text('margin_call_level', t('admin.groups.f.margin_call_level'), '%', t('admin.groups.house_hint'))}
        {text('stop_out_level', t('admin.groups.f.stop_out_level'), '%', t('admin.groups.house_hint'))}
        {select('stop_out_policy', t('admin.groups.f.stop_out_policy'), STOP_OUT_POLICIES, 'admin.groups.policy')}
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted">{t('admin.groups.f.nbp')}</span>
          <select className={inputClass} {...register('nbp')}>
            <option value="">{t('admin.groups.house')}</option>
            <option value="on">{t('admin.groups.on')}</option>
            <option value="off">{t('admin.groups.off')}</option>
          </select>
        </label>
        {text('max_open_positions', t('admin.groups.f.max_open_positions'), undefined, t('admin.groups.zero_hint'))}
        {text('max_pending_orders', t('admin.groups.f.max_pending_orders'), undefined, t('admin.groups.zero_hint'))}
        <label className="flex items-center gap-2 self-center text-sm">
          <input type="checkbox" className="size-4 accent-accent" {...register('is_default')} />
          {t('admin.groups.f.is_default')}
        </label>
      </div>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 font-medium">{t('admin.groups.symbols_title')}</legend>
        <p className="text-sm text-muted">{t('admin.groups.symbols_hint')}</p>
        {rows.fields.map((row, index) => (
          <SymbolTerms
            key={row.id}
            index={index}
            code={row.code}
            control={control}
            register={register}
            commissionType={watch(`symbols.${index}.commission_type`)}
            onRemove={() => rows.remove(index)}
          />
        ))}
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-muted">{t('admin.groups.add_symbol')}</span>
            <select className={inputClass} value={adding} onChange={(e) => setAdding(e.target.value)}>
              {addable.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.code}
                </option>
              ))}
            </select>
          </label>
          <Button type="button" variant="secondary" disabled={addable.length === 0} onClick={add}>
            {t('admin.add')}
          </Button>
        </div>
      </fieldset>

      {save.error && (
        <p role="alert" className="text-sm text-down">
          {save.error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {t('admin.save')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

function SymbolTerms({
  index,
  code,
  control,
  register,
  commissionType,
  onRemove,
}: {
  index: number;
  code: string;
  control: Control<GroupForm>;
  register: UseFormRegister<GroupForm>;
  commissionType: '' | CommissionType;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const tiers = useFieldArray({ control, name: `symbols.${index}.tiers` });
  const field = (name: Parameters<UseFormRegister<GroupForm>>[0], label: string, unit?: string) => (
    <label className="flex flex-col justify-end gap-1 text-sm">
      <span className="text-muted">{label}</span>
      <span className="flex items-center gap-2">
        <input className={inputClass} inputMode="decimal" autoComplete="off" aria-label={`${label} · ${code}`} {...register(name)} />
        {unit && <span className="shrink-0 text-xs text-muted">{unit}</span>}
      </span>
    </label>
  );
  const p = `symbols.${index}` as const;
  const check = (name: `${typeof p}.enabled` | `${typeof p}.swap_free`, label: string) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" className="size-4 accent-accent" aria-label={`${label} · ${code}`} {...register(name)} />
      {label}
    </label>
  );
  return (
    <div
      role="group"
      aria-label={t('admin.groups.terms_of', { symbol: code })}
      className="flex flex-col gap-3 rounded-lg border border-border p-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">
          <bdi>{code}</bdi>
        </h3>
        <div className="flex flex-wrap items-center gap-4">
          {check(`${p}.enabled`, t('admin.groups.f.enabled'))}
          {check(`${p}.swap_free`, t('admin.groups.f.swap_free'))}
          <Button type="button" variant="ghost" onClick={onRemove} aria-label={t('admin.groups.remove_symbol', { symbol: code })}>
            {t('admin.delete')}
          </Button>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        {field(`${p}.spread_markup_points`, t('admin.groups.f.spread_markup'), t('admin.groups.unit.points'))}
        {field(`${p}.leverages`, t('admin.groups.f.leverages'))}
        {field(`${p}.max_lots`, t('admin.groups.f.max_lots'), t('admin.groups.unit.lots'))}
        <label className="flex flex-col justify-end gap-1 text-sm">
          <span className="text-muted">{t('admin.groups.f.commission_type')}</span>
          <select
            className={inputClass}
            aria-label={`${t('admin.groups.f.commission_type')} · ${code}`}
            {...register(`${p}.commission_type`)}
          >
            <option value="">{t('admin.groups.commission.symbol')}</option>
            {COMMISSION_TYPES.map((c) => (
              <option key={c} value={c}>
                {t(adminKey(`admin.groups.commission.${c}`))}
              </option>
            ))}
          </select>
        </label>
        {field(
          `${p}.commission_rate`,
          t('admin.groups.f.commission_rate'),
          commissionType ? t(adminKey(`admin.groups.unit.${commissionType}`)) : undefined,
        )}
        {field(`${p}.swap_long`, t('admin.groups.f.swap_long'))}
        {field(`${p}.swap_short`, t('admin.groups.f.swap_short'))}
        {field(`${p}.deviation_points`, t('admin.groups.f.deviation'), t('admin.groups.unit.points'))}
        {field(`${p}.hedge_threshold_lots`, t('admin.groups.f.hedge_threshold'), t('admin.groups.unit.lots'))}
      </div>
      <p className="text-xs text-muted">{t('admin.groups.symbol_blank_hint')}</p>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">{t('admin.groups.tiers')}</span>
        {tiers.fields.map((tier, i) => (
          <div key={tier.id} className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1 text-sm">
              <span className="text-muted">{t('admin.groups.f.up_to_lots')}</span>
              <input
                className={`${inputClass} w-32`}
                inputMode="decimal"
                autoComplete="off"
                placeholder={t('admin.groups.beyond')}
                aria-label={t('admin.groups.tier_up_to', { n: i + 1, symbol: code })}
                {...register(`${p}.tiers.${i}.up_to_lots`)}
              />
            </label>
            <span className="pb-2 rtl:rotate-180" aria-hidden>
              →
            </span>
            <label className="flex flex-col gap-1 text-sm">
              <span className="text-muted">{t('admin.groups.f.leverage')}</span>
              <input
                className={`${inputClass} w-24`}
                inputMode="numeric"
                autoComplete="off"
                aria-label={t('admin.groups.tier_leverage', { n: i + 1, symbol: code })}
                {...register(`${p}.tiers.${i}.leverage`)}
              />
            </label>
            <Button
              type="button"
              variant="ghost"
              onClick={() => tiers.remove(i)}
              aria-label={t('admin.groups.remove_tier', { n: i + 1, symbol: code })}
            >
              {t('admin.delete')}
            </Button>
          </div>
        ))}
        <div>
          <Button
            type="button"
            variant="secondary"
            onClick={() => tiers.append({ up_to_lots: '', leverage: '' })}
            aria-label={t('admin.groups.add_tier', { symbol: code })}
          >
            {t('admin.groups.add_tier_short')}
          </Button>
        </div>
      </div>
    </div>
  );
}
