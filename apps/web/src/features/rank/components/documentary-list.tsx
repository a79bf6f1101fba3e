import type { ReactNode } from 'react';
import type { RankingItem } from '@tp/contract/schemas/social';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { HoldTime } from './hold-time';
import { Income, initialOf, Percent } from './trader-figures';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-[11px] text-muted">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function TraderCard({ item, onOpen }: { item: RankingItem; onOpen: (item: RankingItem) => void }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-col gap-3 rounded-xl bg-surface p-4">
      <div className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent/20 font-semibold text-accent"
        >
          {initialOf(item.user)}
        </span>
        <button type="button" onClick={() => onOpen(item)} className="flex min-w-0 flex-1 flex-col items-start gap-0.5 text-start">
          <span className="w-full truncate font-medium">{item.user}</span>
          <span className="text-xs text-muted">
            {t('rank.followers')}: <span className="tabular-nums">{formatNumber(item.followers, 0)}</span>
          </span>
        </button>
        <button
          type="button"
          onClick={() => onOpen(item)}
          aria-label={t('rank.follow_trader', { user: item.user })}
          className="rounded-full bg-accent px-4 py-1.5 text-sm font-medium text-on-accent hover:brightness-110"
        >
          {t('rank.follow')}
        </button>
      </div>
      <div className="flex items-end justify-between gap-3">
        <div className="flex flex-col gap-0.5">
          <Percent value={item.three_week_rate} className="text-2xl font-semibold" />
          <span className="text-[11px] text-muted">{t('rank.three_week_rate')}</span>
        </div>
        <div className="flex flex-col items-end gap-0.5">
          <Income value={item.three_week_profit} className="font-medium" />
          <span className="text-[11px] text-muted">{t('rank.three_week_profit')}</span>
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-3 border-t border-border pt-3">
        <Figure label={t('rank.win_rate')}>
          <Percent value={item.three_week_win} signed={false} />
        </Figure>
        <Figure label={t('rank.total_rate')}>
          <Percent value={item.total_rate} />
        </Figure>
        <Figure label={t('rank.total_orders')}>
          <span className="tabular-nums">{formatNumber(item.total_trade_num, 0)}</span>
        </Figure>
        <Figure label={t('rank.multiple')}>
          <span dir="ltr" className="tabular-nums">
            {item.multiple}x
          </span>
        </Figure>
        <Figure label={t('rank.variety')}>
          <span dir="ltr">{item.code || '--'}</span>
        </Figure>
        <Figure label={t('rank.max_drawdown')}>
          <Percent value={item.max_drawdown} signed={false} />
        </Figure>
        <Figure label={t('rank.avg_hold')}>
          <HoldTime seconds={item.avg_hold_seconds} />
        </Figure>
      </dl>
    </li>
  );
}

/** The documentary (copy-trading) tab: a card per trader with a follow button. */
export function DocumentaryList({ items, onOpen }: { items: RankingItem[]; onOpen: (item: RankingItem) => void }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={t('rank.documentary_list')} className="grid gap-3 p-4 lg:grid-cols-2">
      {items.map((item, index) => (
        <TraderCard key={`${index}-${item.user}`} item={item} onOpen={onOpen} />
      ))}
    </ul>
  );
}
