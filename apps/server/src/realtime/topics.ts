import { WsTopic } from '@tp/contract/constants';

export type Topic =
  | { kind: 'DAY_MARKET'; name: string }
  | { kind: 'KLINE'; name: string; code: string }
  | { kind: 'FOREX_TRADE' | 'FOREX_CLOSED'; name: string };

/** Parses a topic name; null when it names nothing we publish. `symbolExists` checks KLINE codes. */
export function parseTopic(raw: unknown, symbolExists: (code: string) => boolean): Topic | null {
  if (typeof raw !== 'string') return null;
  const name = raw.trim();
  if (name === WsTopic.DAY_MARKET) return { kind: 'DAY_MARKET', name };
  if (name === WsTopic.FOREX_TRADE || name === WsTopic.FOREX_CLOSED) return { kind: name, name };
  if (name.toUpperCase().startsWith(WsTopic.KLINE_PREFIX)) {
    const code = name.slice(WsTopic.KLINE_PREFIX.length).toUpperCase();
    return code && symbolExists(code) ? { kind: 'KLINE', name: `${WsTopic.KLINE_PREFIX}${code}`, code } : null;
  }
  return null;
}

export const isUserTopic = (name: string): boolean => name === WsTopic.FOREX_TRADE || name === WsTopic.FOREX_CLOSED;
