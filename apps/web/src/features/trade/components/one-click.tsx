import { OrderStatus } from '@tp/contract/constants';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/toast-store';
import { useSubmitOrder, type SubmitOrderInput } from '../api/submit-order';
import type { OrderDraft } from './order-confirm-sheet';

interface OneClickState {
  enabled: boolean;
  /** The risk acknowledgement is asked once; later the switch turns on at once. */
  acknowledged: boolean;
  set: (next: Partial<Pick<OneClickState, 'enabled' | 'acknowledged'>>) => void;
}

/** The trader's one-click choice, kept in this browser. */
export const useOneClickStore = create<OneClickState>()(
  persist((set) => ({ enabled: false, acknowledged: false, set: (next) => set(next) }), {
    name: 'one-click-trading',
    storage: createJSONStorage(() => localStorage),
    partialize: ({ enabled, acknowledged }) => ({ enabled, acknowledged }),
  }),
);

const newClientOrderId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** The submit call of a draft: the same fields the confirm sheet sends. */
export function orderInputOf(draft: OrderDraft, clientOrderId: string): SubmitOrderInput {
  return {
    type: draft.orderType,
    cont: draft.lots,
    forex_id: draft.symbol.Id,
    status: draft.pending ? OrderStatus.PENDING : OrderStatus.OPEN,
    target_price: draft.pending ? draft.price : undefined,
    target_profit_price: draft.takeProfit ?? undefined,
    stop_loss_price: draft.stopLoss ?? undefined,
    multiple: draft.leverage,
    client_order_id: clientOrderId,
    // The price shown on the button and the trader's slippage tolerance: a worse fill is refused (requote).
    price: draft.pending ? undefined : draft.price,
    deviation: draft.pending ? undefined : (draft.deviation ?? undefined),
  };
}

/**
 * One-click trading: when on, Buy and Sell send the order at once instead of opening the confirm sheet.
 * Turning it on the first time asks for a risk acknowledgement. `control` is the switch and its dialog.
 */
export function useOneClick() {
  const { t } = useTranslation();
  const { enabled, acknowledged, set } = useOneClickStore();
  const [asking, setAsking] = useState(false);
  const submit = useSubmitOrder();
  const busy = useRef(false);

  const place = (draft: OrderDraft) => {
    // One order per press: a second press while the first is in flight is ignored.
    if (busy.current) return;
    busy.current = true;
    submit.mutate(orderInputOf(draft, newClientOrderId()), {
      onSuccess: () => toast(t('messages.order_confirmed'), 'success'),
      onSettled: () => {
        busy.current = false;
      },
    });
  };

  const toggle = () => {
    if (enabled) set({ enabled: false });
    else if (acknowledged) set({ enabled: true });
    else setAsking(true);
  };

  const control = (
    <>
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className={enabled ? 'text-accent' : 'text-muted'}>{t('trade.one_click')}</span>
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-label={t('trade.one_click')}
          onClick={toggle}
          className={`relative h-6 w-11 shrink-0 rounded-full transition-colors ${enabled ? 'bg-accent' : 'bg-surface-2'}`}
        >
          <span className={`absolute top-0.5 size-5 rounded-full bg-white transition-all ${enabled ? 'start-[1.375rem]' : 'start-0.5'}`} />
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        title={t('trade.one_click_title')}
        confirmLabel={t('trade.one_click_accept')}
        danger
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          set({ enabled: true, acknowledged: true });
          setAsking(false);
          toast(t('trade.one_click_on'), 'info');
        }}
      >
        <p className="text-sm">{t('trade.one_click_warning')}</p>
      </ConfirmDialog>
    </>
  );

  return { enabled, place, busy: submit.isPending, control };
}
