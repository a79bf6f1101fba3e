import { dec } from '@tp/contract/decimal';
import { OrderType } from '@tp/contract/constants';
import type { Order } from '@tp/contract/schemas/trading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { formatMoney } from '../../../lib/format';
import { isolateLtr } from './close-lots';
import { useBatchClose, type BatchCloseResult } from '../api/batch-close';

/** 0 all, 1 buys, 2 sells (batch_Close_by_type). */
type CloseKind = 0 | 1 | 2;
const KINDS: { kind: CloseKind; key: 'close_all' | 'close_buys' | 'close_sells' }[] = [
  { kind: 0, key: 'close_all' },
  { kind: 1, key: 'close_buys' },
  { kind: 2, key: 'close_sells' },
];

const matches = (order: Order, kind: CloseKind, forexId: number | null) =>
  (forexId === null || order.ForexId === forexId) &&
  (kind === 0 || (kind === 1 ? order.OrderType === OrderType.BUY : order.OrderType === OrderType.SELL));

/**
 * Close all, all buys or all sells, of the current symbol (when the terminal shows one) or of every
 * symbol; asks first with the count and floating profit, then lists what could not be closed.
 */
export function CloseAllBar({ positions, currentCode, centred }: { positions: Order[]; currentCode?: string | null; centred: boolean }) {
  const { t } = useTranslation();
  const batch = useBatchClose();
  const symbols = [...new Map(positions.map((order) => [order.ForexId, order.ForexTradeLists])).values()];
  const current = symbols.find((item) => item.Code === currentCode);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [asking, setAsking] = useState<CloseKind | null>(null);
  const [result, setResult] = useState<BatchCloseResult | null>(null);
  // The trade screen's symbol by default; 0 means every symbol.
  const scopeId = chosenId ?? current?.Id ?? 0;
  const forexId = symbols.some((item) => item.Id === scopeId) ? scopeId : null;
  const scopeName = symbols.find((item) => item.Id === forexId)?.ShowCode ?? t('orders.all_symbols');
  if (positions.length === 0) return null;

  const chosen = asking === null ? [] : positions.filter((order) => matches(order, asking, forexId));
  const floating = chosen.reduce((sum, order) => sum.plus(order.FactProfits), dec(0));

  function confirm() {
    if (asking === null) return;
    batch.mutate(
      { type: asking, forex_id: forexId ?? undefined },
      {
        onSuccess: (answer) => {
          setAsking(null);
          if (answer.failed.length > 0) setResult(answer);
          else
            toast(t('orders.close_all_done', { count: answer.closed.length, profit: isolateLtr(formatMoney(answer.profit)) }), 'success');
        },
      },
    );
  }

  return (
    <div className="flex items-center gap-2 overflow-x-auto border-b border-border px-4 py-2 whitespace-nowrap" data-testid="close-all-bar">
      <select
        aria-label={t('orders.close_scope')}
        value={forexId ?? 0}
        onChange={(e) => setChosenId(Number(e.target.value))}
        className="h-8 max-w-32 shrink-0 rounded-md border border-border bg-surface-2 px-2 text-xs"
      >
        <option value={0}>{t('orders.all_symbols')}</option>
        {symbols.map((item) => (
          <option key={item.Id} value={item.Id}>
            {item.ShowCode}
          </option>
        ))}
      </select>
      {KINDS.map(({ kind, key }) => {
        const count = positions.filter((order) => matches(order, kind, forexId)).length;
        return (
          <button
            key={kind}
            type="button"
            disabled={count === 0}
            onClick={() => setAsking(kind)}
            className="shrink-0 rounded-md bg-surface-2 px-2.5 py-1.5 text-xs font-medium disabled:opacity-40"
          >
            {t(`orders.${key}`)}
          </button>
        );
      })}
      {asking !== null && (
        <Dialog
          open
          onClose={() => setAsking(null)}
          variant={centred ? 'center' : 'sheet'}
          title={t(`orders.${KINDS[asking]!.key}`)}
          footer={
            <>
              <Button variant="secondary" block onClick={() => setAsking(null)}>
                {t('common.cancel')}
              </Button>
              <Button block disabled={batch.isPending || chosen.length === 0} onClick={confirm}>
                {batch.isPending && <Spinner className="size-4" />}
                {t('orders.confirm_close')}
              </Button>
            </>
          }
        >
          <p className="text-sm">
            {t('orders.close_all_message', {
              count: chosen.length,
              scope: scopeName,
              profit: isolateLtr(formatMoney(floating.toString())),
            })}
          </p>
        </Dialog>
      )}
      {result && (
        <Dialog open onClose={() => setResult(null)} variant={centred ? 'center' : 'sheet'} title={t('orders.close_all_result')}>
          <div className="flex flex-col gap-2 text-sm">
            <p>{t('orders.close_all_done', { count: result.closed.length, profit: isolateLtr(formatMoney(result.profit)) })}</p>
            <p className="text-down">{t('orders.close_all_failed', { count: result.failed.length })}</p>
            <ul className="flex flex-col gap-1 text-xs" data-testid="close-all-failed">
              {result.failed.map((item) => (
                <li key={item.id} className="flex justify-between gap-3">
                  <span className="tabular-nums">#{item.id}</span>
                  <span className="text-end">{item.msg}</span>
                </li>
              ))}
            </ul>
          </div>
        </Dialog>
      )}
    </div>
  );
}
