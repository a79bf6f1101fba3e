import { lazy, Suspense } from 'react';
import { TradePage } from '../features/trade/components/trade-page';
import { TradeTerminal } from '../features/trade/components/trade-terminal';
import { useIsDesktop } from '../lib/device';
import { useSessionStore } from '../lib/session-store';

const SymbolPositions = lazy(() => import('../features/orders/components/symbol-positions').then((m) => ({ default: m.SymbolPositions })));
const PositionsPanel = lazy(() => import('../features/orders/components/positions-panel').then((m) => ({ default: m.PositionsPanel })));

/**
 * /trade: the phone screen, or on a desktop the terminal that puts the trade feature's market list,
 * chart and order form next to the orders feature's positions panel (composed here, as features
 * do not import each other).
 */
export function TradeRoute() {
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const desktop = useIsDesktop();
  if (!desktop) {
    return (
      <TradePage
        positions={
          loggedIn
            ? (symbol) => (
                <Suspense fallback={null}>
                  <SymbolPositions symbolId={symbol.Id} symbolName={symbol.ShowCode} />
                </Suspense>
              )
            : undefined
        }
      />
    );
  }
  return (
    <TradeTerminal
      positions={
        loggedIn ? (
          <Suspense fallback={null}>
            <PositionsPanel />
          </Suspense>
        ) : undefined
      }
    />
  );
}
