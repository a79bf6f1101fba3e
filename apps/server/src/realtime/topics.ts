import { WsTopic } from '@tp/contract/constants';
import { BusChannels } from '../platform/bus-channels.ts';

export type Topic =
  | { kind: 'DAY_MARKET'; name: string }
  | { kind: 'KLINE'; name: string; code: string }
  | { kind: 'MARKET_DEPTH'; name: string; code: string }
  | { kind: 'FOREX_TRADE' | 'FOREX_CLOSED' | 'CHAT' | 'NOTICE' | 'ALERT'; name: string }
  | { kind: 'SUPPORT' | 'DESK'; name: string };

/** Topics fed from a logged-in user's own bus channel. */
const USER_TOPICS: readonly string[] = [WsTopic.FOREX_TRADE, WsTopic.FOREX_CLOSED, WsTopic.CHAT, WsTopic.NOTICE, WsTopic.ALERT];
export interface StaffTopic {
  /** Staff roles that may subscribe (admin always may). */
  roles: readonly string[];
  /** The bus channel whose messages go to the topic's connections as they are. */
  channel: string;
  /** Where a server with subscribers says so about every second (a feed published only on demand). */
  wanted?: string;
}

/** Topics for staff connections only, fed from any server through the bus. */
export const STAFF_TOPICS: Readonly<Record<string, StaffTopic>> = {
  [WsTopic.SUPPORT]: { roles: ['support'], channel: BusChannels.staffSupport },
  [WsTopic.DESK]: { roles: ['risk'], channel: BusChannels.staffDesk, wanted: BusChannels.deskWanted },
};
export const isStaffTopic = (name: string): boolean => Object.hasOwn(STAFF_TOPICS, name);

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
  if (name === WsTopic.SUPPORT || name === WsTopic.DESK) return { kind: name, name };
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
