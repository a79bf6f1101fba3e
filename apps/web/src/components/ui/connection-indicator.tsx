import { useTranslation } from 'react-i18next';
import { useSocketStatus } from '../../lib/use-socket';

const dotClass = {
  idle: 'bg-muted',
  connecting: 'bg-accent animate-pulse',
  open: 'bg-up',
  closed: 'bg-down',
} as const;

/** A small dot saying whether live prices are flowing. */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const status = useSocketStatus();
  const label = t(`connection.${status}`);
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex items-center p-2">
      <span className={`size-2 rounded-full ${dotClass[status]}`} />
    </span>
  );
}
