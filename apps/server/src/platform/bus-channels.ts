import type { SessionEndReason } from '@tp/contract/constants';

/**
 * Every bus channel, in one place. Market publishes quote and candle pushes; trading publishes per-user
 * pushes on `userChannel(id)` as ready-to-send socket messages ({type: 'FOREX_TRADE', ...} or
 * {type: 'FOREX_CLOSED', id: [...]}), which the gateway forwards to that user's logged-in connections
 * subscribed to the message's type.
 */
export const BusChannels = {
  dayMarket: 'push:DAY_MARKET',
  kline: 'push:KLINE',
  userChannel: (userId: number) => `push:user:${userId}`,
  marketStatus: 'market:status',
  /** Several servers: every tick of the leader's feed, for the followers' quotes and candles. */
  tick: 'market:tick',
  /** Several servers: the leader's feed heartbeat ({@link FeedBeat}), every second and when a held jump starts or ends. */
  feed: 'market:feed',
  /** Settings changed in the back office ({keys, values}); every server reloads what it caches. */
  settingsChanged: 'settings:changed',
  /** Sessions revoked or expired ({@link SessionEnded}); the gateway closes their sockets. */
  sessionEnded: 'session.revoked',
  /** Every stored support chat message, for the staff desk's sockets. */
  staffSupport: 'push:staff:support',
  /** The dealer's desk figures ({type: 'DESK', real, demo}), from the server running the engine, for staff sockets. */
  staffDesk: 'push:staff:desk',
  /** A server with desk sockets says so about every second; the engine's server publishes the desk only while it hears this. */
  deskWanted: 'staff:desk:wanted',
  /** A hedge order a follower asks the leader (which runs the FIX sessions) to send ({id, req}). */
  hedgeRequest: 'hedge:request',
  /** The leader's answer to a hedgeRequest ({id, result}). */
  hedgeReply: 'hedge:reply',
} as const;

/** The message on `BusChannels.feed`: the symbols whose price jump the leader's filter holds. */
export interface FeedBeat {
  held: number[];
}

/** The message on `BusChannels.sessionEnded`. */
export interface SessionEnded {
  sessionIds: number[];
  reason: SessionEndReason;
}
