import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { formatMoney } from '../../../lib/format';
import { useBalance } from '../../../api/get-balance';

const LINKS = [
  { to: '/mine/charge', key: 'charge' },
  { to: '/mine/withdraw', key: 'withdraw' },
  { to: '/mine/coin-address-list', key: 'coin_address_list' },
  { to: '/mine/bank-card-list', key: 'bank_card_list' },
  { to: '/mine/history', key: 'history' },
] as const;

function WalletContent() {
  const { t } = useTranslation();
  const balance = useBalance(true);
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 p-4">
      <section className="grid grid-cols-2 gap-3 rounded-xl bg-surface p-4">
        <div className="flex flex-col gap-1">
          <span className="text-xs text-muted">{t('funding.available')}</span>
          <span className="text-xl font-semibold tabular-nums">{formatMoney(balance.data?.balance)}</span>
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-xs text-muted">{t('funding.locked')}</span>
          <span className="text-xl font-semibold tabular-nums">{formatMoney(balance.data?.lock_balance)}</span>
        </div>
      </section>
      <ul className="divide-y divide-border rounded-xl bg-surface">
        {LINKS.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="flex items-center gap-3 px-4 py-3.5">
              <span className="flex-1">{t(`pages.${link.key}`)}</span>
              <ChevronIcon className="size-4 text-muted" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /mine/wallet: balances and the ways in and out. */
export function WalletPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.wallet')} />
      <RealAccountOnly>
        <WalletContent />
      </RealAccountOnly>
    </>
  );
}
