import type { ReactNode } from 'react';
import type { RankingItem } from '@tp/contract/schemas/social';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { Income, Percent } from './trader-figures';

const MEDAL = ['bg-amber-400 text-black', 'bg-slate-300 text-black', 'bg-orange-400 text-black'];

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="flex flex-col gap-0.5">
      <span className="text-[11px] text-muted">{label}</span>
      <span className="text-sm">{children}</span>
    </span>
  );
}

/** The ranking tab: one row per trader, best three-week profit rate first. */
export function RankingList({ items, onOpen }: { items: RankingItem[]; onOpen: (item: RankingItem) => void }) {
  const { t } = useTranslation();
  return (
    <ol aria-label={t('rank.ranking_list')} className="divide-y divide-border">
      {items.map((item, index) => (
        <li key={`${index}-${item.user}`}>
          <button
            type="button"
            onClick={() => onOpen(item)}
            className="flex w-full flex-col gap-2.5 px-4 py-3.5 text-start hover:bg-surface"
          >
            <span className="flex w-full items-center gap-3">
              <span
                aria-label={t('rank.position', { rank: index + 1 })}
                className={`flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold tabular-nums ${MEDAL[index] ?? 'bg-surface-2 text-muted'}`}
              >
                {index + 1}
              </span>
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="truncate font-medium">{item.user}</span>
                <span className="flex flex-wrap gap-x-3 text-xs text-muted">
                  <span>
                    {t('rank.variety')}: <span dir="ltr">{item.code || '--'}</span>
                  </span>
                  <span>
                    {t('rank.multiple')}: <span dir="ltr">{item.multiple}x</span>
                  </span>
                </span>
              </span>
              <span className="flex flex-col items-end gap-0.5">
                <Percent value={item.three_week_rate} className="text-lg font-semibold" />
                <span className="text-[11px] text-muted">{t('rank.three_week_rate')}</span>
              </span>
            </span>
            <span className="grid w-full grid-cols-4 gap-2 ps-10">
              <Stat label={t('rank.three_week_profit')}>
                <Income value={item.three_week_profit} />
              </Stat>
              <Stat label={t('rank.win_rate')}>
                <Percent value={item.three_week_win} signed={false} />
              </Stat>
              <Stat label={t('rank.followers')}>
                <span className="tabular-nums">{formatNumber(item.followers, 0)}</span>
              </Stat>
              <Stat label={t('rank.total_orders')}>
                <span className="tabular-nums">{formatNumber(item.total_trade_num, 0)}</span>
              </Stat>
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
