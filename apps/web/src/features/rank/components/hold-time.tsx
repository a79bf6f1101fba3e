import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';

/** Seconds as hours (or minutes under an hour), in the user's language. */
export function HoldTime({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  return seconds >= 3600 ? (
    <span className="tabular-nums">{t('rank.hours', { value: formatNumber(seconds / 3600, 1) })}</span>
  ) : (
    <span className="tabular-nums">{t('rank.minutes', { value: formatNumber(Math.round(seconds / 60), 0) })}</span>
  );
}
