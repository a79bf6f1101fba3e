import type { Endpoint } from '../endpoint.ts';
import * as admin from './admin.ts';
import * as auth from './auth.ts';
import * as content from './content.ts';
import * as funding from './funding.ts';
import * as identity from './identity.ts';
import * as market from './market.ts';
import * as partners from './partners.ts';
import * as platform from './platform.ts';
import * as social from './social.ts';
import * as support from './support.ts';
import * as trading from './trading.ts';
import * as webPush from './web-push.ts';

/** The endpoint table, by module: every HTTP call of the product, trader and staff alike. */
export const endpoints = {
  admin,
  auth,
  content,
  funding,
  identity,
  market,
  partners,
  platform,
  social,
  support,
  trading,
  webPush,
} as const;

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && typeof (value as Endpoint).path === 'string' && 'output' in value;

/** Every endpoint of the table, with its module and name (for the OpenAPI test and the route checks). */
export function allEndpoints(): { module: string; name: string; endpoint: Endpoint }[] {
  return Object.entries(endpoints).flatMap(([module, table]) =>
    Object.entries(table as Record<string, unknown>)
      .filter((entry): entry is [string, Endpoint] => isEndpoint(entry[1]))
      .map(([name, endpoint]) => ({ module, name, endpoint })),
  );
}

/**
 * What an API key may call, by scope, decided on the matched endpoint (never on URL text). `read`: the
 * account, orders and market data of its user; `trade`: those and order submit, close and modify. No
 * key reaches anything else: withdrawals, deposits, funding, password, two-factor, security and profile
 * changes, sessions, and API-key management itself are refused for every key. Calls open to anyone
 * (quotes, candles, symbols) need no key.
 */
export const API_KEY_ENDPOINTS: { readonly read: readonly Endpoint[]; readonly trade: readonly Endpoint[] } = {
  read: [
    auth.userInfo,
    trading.myDeal,
    trading.deal,
    trading.notices,
    trading.alerts,
    trading.getBalance,
    trading.forexDetail,
    trading.accountLog,
    trading.statement,
    market.favourites,
    market.tradeList,
  ],
  trade: [
    trading.submit,
    trading.close,
    trading.cancelTrade,
    trading.setStopPrice,
    trading.setTrailing,
    trading.batchCloseByType,
    trading.reverse,
  ],
};

/** The scope a key needs for an endpoint (trade includes read), or null when no key may call it. */
export function apiKeyScopeOf(e: Endpoint): 'read' | 'trade' | null {
  if (API_KEY_ENDPOINTS.read.includes(e)) return 'read';
  if (API_KEY_ENDPOINTS.trade.includes(e)) return 'trade';
  return null;
}
