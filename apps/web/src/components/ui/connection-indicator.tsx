import { useTranslation } from 'react-i18next';
import { socket } from '../../lib/socket';
import { useSocketLoginRetrying, useSocketStatus } from '../../lib/use-socket';

const dotClass = {
  idle: 'bg-muted',
  connecting: 'bg-accent animate-pulse',
  open: 'bg-up',
  closed: 'bg-down',
} as const;

/**
 * A small dot saying whether live prices are flowing; while the connection is lost or the server
 * cannot log the session in, a short text says that live updates are being retried.
 */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const status = useSocketStatus();
  const loginRetrying = useSocketLoginRetrying();
  const lost = status !== 'open' && socket.down;
  const label = loginRetrying ? t('connection.loginRetrying') : t(`connection.${status}`);
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex items-center gap-1 p-2">
      <span className={`size-2 rounded-full ${loginRetrying ? dotClass.connecting : dotClass[status]}`} />
      {(lost || loginRetrying) && (
        <span aria-hidden="true" className="text-xs whitespace-nowrap text-muted" data-testid="connection-retrying">
          {t('connection.retrying')}
        </span>
      )}
    </span>
  );
}
