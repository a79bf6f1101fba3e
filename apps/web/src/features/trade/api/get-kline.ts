import type { ChartPeriodName } from '@tp/contract/chart-periods';
import { kline } from '@tp/contract/endpoints/market';
import { call } from '../../../lib/api-client';

export const KLINE_PAGE = 300;

/** Candle bars oldest first; `before` pages back to bars strictly older than that time (epoch ms). */
export const getKline = (params: { forexId: number; period: ChartPeriodName; before?: number; limit?: number }, signal?: AbortSignal) =>
  call(
    kline,
    { forex_id: params.forexId, period: params.period, before: params.before, limit: params.limit ?? KLINE_PAGE },
    { signal, showErrorMessage: false },
  );
