import { WsTopic } from '@tp/contract/constants';

export type Topic =
  | { kind: 'DAY_MARKET'; name: string }
  | { kind: 'KLINE'; name: string; code: string }
  | { kind: 'MARKET_DEPTH'; name: string; code: string }
  | { kind: 'FOREX_TRADE' | 'FOREX_CLOSED' | 'CHAT' | 'NOTICE' | 'ALERT'; name: string }
  | { kind: 'SUPPORT'; name: string };

/** Topics fed from a logged-in user's own bus channel. */
const USER_TOPICS: readonly string[] = [WsTopic.FOREX_TRADE, WsTopic.FOREX_CLOSED, WsTopic.CHAT, WsTopic.NOTICE, WsTopic.ALERT];
/** The support desk's live feed: staff connections with the support role only. */
export const STAFF_SUPPORT_TOPIC = WsTopic.SUPPORT;

/** Parses a topic name; null when it names nothing we publish. `symbolExists` checks KLINE codes. */
export function parseTopic(raw: unknown, symbolExists: (code: string) => boolean): Topic | null {
  if (typeof raw !== 'string') return null;
  const name = raw.trim();
  if (name === WsTopic.DAY_MARKET) return { kind: 'DAY_MARKET', name };
  if (
    name === WsTopic.FOREX_TRADE ||
    name === WsTopic.FOREX_CLOSED ||
    name === WsTopic.CHAT ||
    name === WsTopic.NOTICE ||
    name === WsTopic.ALERT
  )
    return { kind: name, name };
  if (name === WsTopic.SUPPORT) return { kind: 'SUPPORT', name };
  if (name.toUpperCase().startsWith(WsTopic.KLINE_PREFIX)) {
    const code = name.slice(WsTopic.KLINE_PREFIX.length).toUpperCase();
    return code && symbolExists(code) ? { kind: 'KLINE', name: `${WsTopic.KLINE_PREFIX}${code}`, code } : null;
  }
  if (name.toUpperCase().startsWith(WsTopic.MARKET_DEPTH_PREFIX)) {
    const code = name.slice(WsTopic.MARKET_DEPTH_PREFIX.length).toUpperCase();
    return code && symbolExists(code) ? { kind: 'MARKET_DEPTH', name: `${WsTopic.MARKET_DEPTH_PREFIX}${code}`, code } : null;
  }
  return null;
}

export const isUserTopic = (name: string): boolean => USER_TOPICS.includes(name);

/** Pushes every logged-in connection of the user gets without subscribing (PROTOCOL: NOTICE, ALERT). */
const ANNOUNCEMENTS: readonly string[] = ['NOTICE', 'ALERT'];
export const isAnnouncement = (type: string): boolean => ANNOUNCEMENTS.includes(type);
