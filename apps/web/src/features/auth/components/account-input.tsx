import { useEffect, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field';
import { Segmented } from '../../../components/ui/segmented';
import { useAreaList } from '../api/get-area-list';
import { useShowMobile } from '../api/get-show-mobile';
import { currentLang } from '../../../lib/i18n';
import { areaOptions, defaultArea } from './area-codes';

export type AccountType = 'email' | 'mobile';

export interface AccountValue {
  type: AccountType;
  account: string;
  areaId?: number;
}

/** Email or phone (with the area code picker when is_show_mobile is on). */
export function AccountInput({
  value,
  onChange,
  error,
}: {
  value: AccountValue;
  onChange: (value: AccountValue) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const areaId = useId();
  const showMobile = useShowMobile().data === true;
  const areas = useAreaList(showMobile && value.type === 'mobile');
  const lang = currentLang();
  // Countries named in the UI language, starting at the language's (or the browser's) country.
  const options = useMemo(() => areaOptions(areas.data ?? [], lang), [areas.data, lang]);
  const startArea = useMemo(
    () => defaultArea(areas.data ?? [], lang, typeof navigator === 'undefined' ? [] : navigator.languages)?.id,
    [areas.data, lang],
  );

  useEffect(() => {
    if (value.type === 'mobile' && value.areaId === undefined && startArea !== undefined) onChange({ ...value, areaId: startArea });
  }, [value, startArea, onChange]);

  return (
    <div className="flex flex-col gap-4">
      {showMobile && (
        <Segmented
          label={t('auth.account_type')}
          value={value.type}
          onChange={(type) => onChange({ ...value, type, account: '' })}
          options={[
            { value: 'email', label: t('auth.by_email') },
            { value: 'mobile', label: t('auth.by_phone') },
          ]}
        />
      )}
      {value.type === 'mobile' ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={areaId} className="text-sm text-muted">
            {t('auth.area_code')}
          </label>
          <select
            id={areaId}
            value={value.areaId ?? ''}
            onChange={(e) => onChange({ ...value, areaId: Number(e.target.value) })}
            className="rounded-lg border border-border bg-surface px-3 py-2.5 text-text"
          >
            {options.map(({ area, label }) => (
              <option key={area.id} value={area.id}>
                {label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <Field
        label={value.type === 'mobile' ? t('auth.phone') : t('auth.email')}
        type={value.type === 'mobile' ? 'tel' : 'email'}
        autoComplete={value.type === 'mobile' ? 'tel-national' : 'username'}
        inputMode={value.type === 'mobile' ? 'tel' : 'email'}
        value={value.account}
        error={error}
        onChange={(e) => onChange({ ...value, account: e.target.value })}
      />
    </div>
  );
}
