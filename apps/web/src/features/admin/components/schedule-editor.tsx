import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../../components/ui/icons';
import { currentLocale } from '../../../lib/i18n';
import { DAYS, type RangeError, type TimeRange, type Week, type WeekErrors } from '../lib/schedule';

/** A symbol's trading hours as staff edit them: open around the clock, or a week of ranges. */
export interface ScheduleDraft {
  alwaysOpen: boolean;
  week: Week;
}

const FULL_DAY: TimeRange = { open: '00:00', close: '24:00' };
const inputClass =
  'w-20 rounded-lg border border-border bg-surface px-2 py-1.5 text-center tabular-nums text-text outline-none focus:border-accent';

const dayName = (day: number) =>
  new Intl.DateTimeFormat(currentLocale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2023, 0, 1 + day));

/**
 * The weekly schedule of a symbol: per weekday zero or more open–close ranges (none: closed all day),
 * in the symbol's session time zone as stored. Errors show once `showErrors` is set (after a blur or a save).
 */
export function ScheduleEditor({
  value,
  onChange,
  errors,
  showErrors,
  onBlur,
  timezone,
}: {
  value: ScheduleDraft;
  onChange: (draft: ScheduleDraft) => void;
  errors: WeekErrors;
  showErrors: boolean;
  onBlur: () => void;
  timezone: string;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const setDay = (day: number, ranges: TimeRange[]) => onChange({ ...value, week: value.week.map((r, d) => (d === day ? ranges : r)) });
  const setAlwaysOpen = (alwaysOpen: boolean) => {
    // Leaving "around the clock" with no hours yet starts from the working week, whole days.
    const empty = value.week.every((d) => d.length === 0);
    onChange({ alwaysOpen, week: !alwaysOpen && empty ? DAYS.map((d) => (d >= 1 && d <= 5 ? [FULL_DAY] : [])) : value.week });
  };
  return (
    <fieldset className="flex flex-col gap-3 text-sm" aria-describedby={hintId}>
      <legend className="mb-1 text-muted">{t('admin.f.schedule')}</legend>
      <p id={hintId} className="text-xs text-muted">
        {t('admin.schedule.time_zone', { zone: timezone })} {t('admin.schedule.time_hint')}
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={value.alwaysOpen} onChange={(e) => setAlwaysOpen(e.target.checked)} />
        {t('admin.schedule.always_open')}
      </label>
      {!value.alwaysOpen && (
        <>
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {DAYS.map((day) => (
              <li key={day}>
                <DayEditor
                  name={dayName(day)}
                  ranges={value.week[day] ?? []}
                  errors={showErrors ? (errors.ranges[day] ?? []) : []}
                  onChange={(ranges) => setDay(day, ranges)}
                  onBlur={onBlur}
                />
              </li>
            ))}
          </ul>
          {showErrors && errors.empty && (
            <p role="alert" className="text-down">
              {t('admin.schedule.err_empty')}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}

const ERROR_KEY = {
  time: 'admin.schedule.err_time',
  order: 'admin.schedule.err_order',
  overlap: 'admin.schedule.err_overlap',
} as const satisfies Record<RangeError, string>;

function DayEditor({
  name,
  ranges,
  errors,
  onChange,
  onBlur,
}: {
  name: string;
  ranges: TimeRange[];
  errors: (RangeError | null)[];
  onChange: (ranges: TimeRange[]) => void;
  onBlur: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const set = (i: number, range: TimeRange) => onChange(ranges.map((r, j) => (j === i ? range : r)));
  const add = () => {
    const last = ranges.at(-1);
    onChange([...ranges, last ? { open: last.close, close: '24:00' } : FULL_DAY]);
  };
  return (
    <fieldset className="flex flex-col gap-2 px-3 py-2">
      <legend className="float-start font-medium">{name}</legend>
      <label className="flex items-center gap-2 text-xs">
        <input type="checkbox" checked={ranges.length === 0} onChange={(e) => onChange(e.target.checked ? [] : [FULL_DAY])} />
        {t('admin.schedule.closed_all_day')}
      </label>
      {ranges.map((range, i) => {
        const error = errors[i] ?? null;
        const errorId = `${id}-${i}-error`;
        const field = (side: 'open' | 'close') => (
          <input
            className={`${inputClass} ${error ? 'border-down' : ''}`}
            dir="ltr"
            inputMode="numeric"
            placeholder="HH:MM"
            maxLength={5}
            aria-label={t(side === 'open' ? 'admin.schedule.opens' : 'admin.schedule.closes')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            value={range[side]}
            onChange={(e) => set(i, { ...range, [side]: e.target.value })}
            onBlur={onBlur}
          />
        );
        return (
          <div key={i} className="flex flex-col gap-1" role="group" aria-label={t('admin.schedule.range', { n: i + 1 })}>
            <div className="flex flex-wrap items-center gap-2">
              {field('open')}
              <span aria-hidden="true">–</span>
              {field('close')}
              <button
                type="button"
                className="rounded p-1 text-muted hover:text-text"
                aria-label={t('admin.schedule.remove')}
                onClick={() => onChange(ranges.filter((_, j) => j !== i))}
              >
                <CloseIcon className="size-4" aria-hidden="true" />
              </button>
            </div>
            {error && (
              <p id={errorId} className="text-xs text-down">
                {t(ERROR_KEY[error])}
              </p>
            )}
          </div>
        );
      })}
      <button type="button" className="self-start rounded-lg bg-surface-2 px-3 py-1 text-xs hover:text-accent" onClick={add}>
        {t('admin.schedule.add')}
      </button>
    </fieldset>
  );
}
