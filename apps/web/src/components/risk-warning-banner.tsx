import { useTranslation } from 'react-i18next';
import { useRiskWarning } from '../api/risk-warning';
import { formatDateTime, formatPercent, isolateLtr } from '../lib/format';

/**
 * The risk warning a regulatory profile requires (ESMA retail): the share of retail accounts that lost
 * money with this provider, and when it was computed. Shown only to traders whose account group
 * requires it; nothing while it loads or when the call fails (the screen works without it).
 */
export function RiskWarningBanner({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const warning = useRiskWarning();
  const data = warning.data;
  if (!data || data.show !== 1 || data.percent === null) return null;
  return (
    <aside
      aria-label={t('risk.title')}
      data-testid="risk-warning"
      className={`shrink-0 rounded-lg border border-accent/40 bg-accent/10 px-3 py-2 text-xs leading-relaxed text-text ${className}`}
    >
      <p>{t('risk.warning', { percent: isolateLtr(formatPercent(data.percent)) })}</p>
      {data.computed_at && <p className="mt-0.5 text-muted">{t('risk.as_of', { date: formatDateTime(data.computed_at) })}</p>}
    </aside>
  );
}
