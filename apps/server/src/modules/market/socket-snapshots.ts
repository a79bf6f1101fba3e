import { PERIOD_NAMES } from '@tp/contract/constants';
import type { MarketSnapshots } from '../../realtime/gateway.ts';
import type { MarketServiceImpl } from './market-service.ts';
import { dayMarketMessage, depthMessage, klineMessage } from './presenters.ts';

/** The current quotes and forming bars the socket gateway sends a new subscriber. */
export function socketSnapshots(market: MarketServiceImpl): MarketSnapshots {
  return {
    symbolExists: (code) => market.symbolByCode(code) !== undefined,
    refreshStatus: () => market.refreshStatus(),
    dayMarket() {
      const now = Date.now();
      return market
        .symbols()
        .filter((s) => s.visible)
        .map((s) => ({ symbol: s.code, message: dayMarketMessage(s, market.quote(s.id)!, market.closedReason(s.id, now)) }));
    },
    depth(code, dayMarket) {
      const s = market.symbolByCode(code);
      const q = s && market.quote(s.id);
      if (!s || !q) return null;
      return depthMessage(s, dayMarket?.quotation ?? q);
    },
    kline(code) {
      const s = market.symbolByCode(code);
      if (!s) return [];
      const time = market.quote(s.id)?.time ?? Date.now();
      return PERIOD_NAMES.flatMap((period) => {
        const bar = market.formingBar(s.id, period);
        return bar ? [{ period, message: klineMessage(s, period, bar, time) }] : [];
      });
    },
  };
}
