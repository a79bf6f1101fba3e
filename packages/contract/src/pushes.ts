/**
 * Every message of the websocket /v1/ws, declared once, like the HTTP endpoints: the server builds
 * each frame it sends with `pushMessage` (typed by these schemas), the web app reads each frame it
 * receives with `parseServerMessage` (push-parse.ts, checked against these schemas without shipping
 * zod to the browser), and the README's table of socket messages is generated from here.
 *
 * The wire is the one existing clients of this API family speak (PROTOCOL.md): field names, nesting
 * and string-versus-number must never change.
 */
import { z } from 'zod';
import { SESSION_END_REASONS, WsTopic } from './constants.ts';
import { DeskExposureSchema } from './schemas/admin.ts';
import { KlineBarSchema, QuotationSchema } from './schemas/market.ts';
import { CHAT_PUSH_TYPE, ChatMessageSchema } from './schemas/support.ts';
import { AlertSchema, NoticeSchema, OrderSchema } from './schemas/trading.ts';

/**
 * Who gets a server message: `reply` answers the client's own message; `quote` is a quote topic
 * (coalesced per symbol for a slow client); `user` a logged-in user's topic; `announcement` every
 * logged-in connection of the user without a `sub`; `staff` staff connections (the support desk, the dealer's desk); `session` the
 * connection whose session ended.
 */
export type SocketAudience = 'reply' | 'quote' | 'user' | 'announcement' | 'staff' | 'session';

export interface SocketMessageDeclaration {
  /** The value of `type` on the wire (clients dispatch on it), or the text of a text frame. */
  readonly type: string;
  /** JSON `{type, ...}` or a bare text frame (`ping`, `pong`). */
  readonly frame: 'json' | 'text';
  /** The topic a client subscribes to (`{code}` stands for a symbol code); null when none. */
  readonly topic: string | null;
  readonly schema: z.ZodType;
  readonly summary: string;
}

export interface ServerMessageDeclaration extends SocketMessageDeclaration {
  readonly audience: SocketAudience;
}

const declare = <const D extends ServerMessageDeclaration>(d: D): D => d;
const declareClient = <const D extends SocketMessageDeclaration>(d: D): D => d;

const int = z.number().int();
const reply = <const T extends string>(type: T) => z.object({ type: z.literal(type), code: int, msg: z.string() });
const topicReply = <const T extends string>(type: T) => reply(type).extend({ topic: z.string() });
/**
 * The user's push sequence on NOTICE and FOREX_CLOSED: increasing one by one per user, so a client
 * that reconnects can ask for what followed the last one it saw (`replay`) and drop a push seen twice.
 */
const seq = int.optional();
/** A level of the book: [price, lots], decimal strings. */
const level = z.tuple([z.string(), z.string()]);

/** What the server sends, by name (the wire `type`, except the desk's chat, whose type is also CHAT). */
export const serverMessages = {
  pong: declare({
    type: 'pong',
    frame: 'text',
    topic: null,
    audience: 'reply',
    schema: z.literal('pong'),
    summary: 'The answer to the heartbeat `ping`, as the text `pong`.',
  }),
  error: declare({
    type: 'error',
    frame: 'json',
    topic: null,
    audience: 'reply',
    schema: reply('error'),
    summary: 'A message that could not be read or has an unknown type; the connection stays open.',
  }),
  login_result: declare({
    type: 'login_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    schema: reply('login_result'),
    summary:
      '`code` 1 logged in (a trader, by session or API key, or with a staff token a staff desk: support or dealing); 999 a bad or expired token or key; 500 the login could not be checked now (the token may be good): try again.',
  }),
  logout_result: declare({
    type: 'logout_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    schema: reply('logout_result'),
    summary: 'The login on this connection ended.',
  }),
  sub_result: declare({
    type: 'sub_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    schema: topicReply('sub_result'),
    summary: '`code` 1 subscribed to `topic`; otherwise unknown topic, login required or too many subscriptions.',
  }),
  unsub_result: declare({
    type: 'unsub_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    schema: topicReply('unsub_result'),
    summary: 'Unsubscribed from `topic` (`code` other than 1: an unknown topic).',
  }),
  replay_result: declare({
    type: 'replay_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    schema: reply('replay_result').extend({ data: z.object({ complete: z.boolean(), count: int }) }),
    summary:
      'Sent after the replayed pushes: `data.count` pushes were sent again; `data.complete` false when some that followed the seq are no longer kept (or the seq is unknown): refetch orders and notices. `code` other than 1: not logged in as a trader, a bad seq, or the journal cannot be read now.',
  }),
  session_ended: declare({
    type: 'session_ended',
    frame: 'json',
    topic: null,
    audience: 'session',
    schema: z.object({ type: z.literal('session_ended'), reason: z.enum(SESSION_END_REASONS), msg: z.string() }),
    summary:
      'The session this connection logged in with ended, on whichever server it ended. The connection stays open, logged out: no user or desk push follows until it logs in again.',
  }),
  DAY_MARKET: declare({
    type: WsTopic.DAY_MARKET,
    frame: 'json',
    topic: WsTopic.DAY_MARKET,
    audience: 'quote',
    schema: z.object({ type: z.literal(WsTopic.DAY_MARKET), symbol: z.string(), time: int, quotation: QuotationSchema }),
    summary: "One symbol's quote (a snapshot of every symbol on `sub`, then one per tick, coalesced per symbol); `time` epoch ms.",
  }),
  KLINE: declare({
    type: 'KLINE',
    frame: 'json',
    topic: `${WsTopic.KLINE_PREFIX}{code}`,
    audience: 'quote',
    schema: z.object({ type: z.literal('KLINE'), symbol: z.string(), forex_id: int, time: int, kline: KlineBarSchema }),
    summary: 'The forming bar of one period of the symbol; every period comes on the one topic and clients filter by `kline.Period`.',
  }),
  MARKET_DEPTH: declare({
    type: 'MARKET_DEPTH',
    frame: 'json',
    topic: `${WsTopic.MARKET_DEPTH_PREFIX}{code}`,
    audience: 'quote',
    schema: z.object({
      type: z.literal('MARKET_DEPTH'),
      symbol: z.string(),
      forex_id: int,
      time: int,
      bids: z.array(level),
      asks: z.array(level),
    }),
    summary:
      'The top of book, `[[price, lots]]` each side (the broker quotes one level, good for up to the maximum lots per order): a snapshot on `sub`, then one per quote, coalesced.',
  }),
  FOREX_TRADE: declare({
    type: WsTopic.FOREX_TRADE,
    frame: 'json',
    topic: WsTopic.FOREX_TRADE,
    audience: 'user',
    schema: z.object({
      type: z.literal(WsTopic.FOREX_TRADE),
      /** The user id. */
      To: int,
      /** Risk rate in percent ("0" while nothing is open). */
      HazardRate: z.string(),
      /** Margin of the open positions. */
      CautionMoneyAll: z.string(),
      /** Floating profit of the open positions. */
      ProfitsTotal: z.string(),
      /** Margin of the open positions plus the reservations of pending orders. */
      OriginCautionMoneyTotal: z.string(),
      /** The open positions at current prices. */
      TransOrder: z.array(OrderSchema),
      balance: z.string(),
      lock_balance: z.string(),
      equity: z.string(),
      available_prepayment: z.string(),
      prepayment_ratio: z.string(),
      margin_call: z.union([z.literal(0), z.literal(1)]),
    }),
    summary: 'The account figures and open positions at current prices (newest wins for a client that is backed up).',
  }),
  FOREX_CLOSED: declare({
    type: WsTopic.FOREX_CLOSED,
    frame: 'json',
    topic: WsTopic.FOREX_CLOSED,
    audience: 'user',
    schema: z.object({ type: z.literal(WsTopic.FOREX_CLOSED), id: z.array(int), seq }),
    summary:
      "The ids of orders that just closed or were cancelled; always sent, after any account snapshot still waiting. `seq`: the user's push sequence (see `replay`).",
  }),
  NOTICE: declare({
    type: WsTopic.NOTICE,
    frame: 'json',
    topic: WsTopic.NOTICE,
    audience: 'announcement',
    schema: z.object({ type: z.literal(WsTopic.NOTICE), ...NoticeSchema.shape, seq }),
    summary:
      'A close or fill the trader did not make (`kind`: take_profit, stop_loss, trailing_stop, stop_out, staff_close, demo_reset, pending_filled, pending_cancelled, margin_call: then `price` is the margin level in percent; account events deposit_approved, deposit_rejected, withdrawal_paid, withdrawal_rejected with `amount` and `currency`, identity_verified, identity_rejected, support_reply, with `reason` on a rejection when staff gave one, order fields 0 or empty); `time` Unix seconds; `seq` as on FOREX_CLOSED. Also listed by `/v1/api/forex/notices`.',
  }),
  ALERT: declare({
    type: WsTopic.ALERT,
    frame: 'json',
    topic: WsTopic.ALERT,
    audience: 'announcement',
    schema: z.object({ type: z.literal(WsTopic.ALERT), ...AlertSchema.shape }),
    summary: 'A price alert of the trader fired (the alert as `/v1/api/forex/alerts` lists it).',
  }),
  CHAT: declare({
    type: CHAT_PUSH_TYPE,
    frame: 'json',
    topic: WsTopic.CHAT,
    audience: 'user',
    schema: z.object({ type: z.literal(CHAT_PUSH_TYPE), message: ChatMessageSchema }),
    summary: "A support chat message of the trader's conversation, from either side, once stored.",
  }),
  SUPPORT: declare({
    type: CHAT_PUSH_TYPE,
    frame: 'json',
    topic: WsTopic.SUPPORT,
    audience: 'staff',
    schema: z.object({ type: z.literal(CHAT_PUSH_TYPE), user_id: int, message: ChatMessageSchema }),
    summary: 'Every stored chat message of every conversation, to staff connections with the support role.',
  }),
  DESK: declare({
    type: WsTopic.DESK,
    frame: 'json',
    topic: WsTopic.DESK,
    audience: 'staff',
    schema: z.object({ type: z.literal(WsTopic.DESK), real: DeskExposureSchema, demo: DeskExposureSchema }),
    summary:
      "The dealer's desk, real and demo accounts, as `/api/admin/desk/exposure` answers each: about twice a second while any staff connection with the risk role is subscribed.",
  }),
} as const;

const clientParams = <const T extends string>(type: T) => z.object({ type: z.literal(type), params: z.string() });

/** What a client sends. The server also takes `{type: "ping"}` as a heartbeat. */
export const clientMessages = {
  ping: declareClient({
    type: 'ping',
    frame: 'text',
    topic: null,
    schema: z.literal('ping'),
    summary: 'Heartbeat (the JSON `{type: "ping"}` is taken too); answered with `pong`.',
  }),
  login: declareClient({
    type: 'login',
    frame: 'json',
    topic: null,
    schema: clientParams('login'),
    summary:
      "`params`: the session token (a `Bearer ` prefix is accepted), or `ApiKey <key>` for a bot (any scope receives its user's pushes); a staff token logs a staff desk in (the support desk, the dealer's desk).",
  }),
  logout: declareClient({
    type: 'logout',
    frame: 'json',
    topic: null,
    schema: clientParams('logout'),
    summary: '`params`: "". Ends the login on this connection.',
  }),
  replay: declareClient({
    type: 'replay',
    frame: 'json',
    topic: null,
    schema: clientParams('replay'),
    summary:
      "`params`: the last `seq` seen (decimal). After `login` (and `sub`): the logged-in trader's NOTICE and FOREX_CLOSED pushes kept since (a few minutes) come again to this connection, in order, then `replay_result`.",
  }),
  sub: declareClient({ type: 'sub', frame: 'json', topic: null, schema: clientParams('sub'), summary: '`params`: a topic name.' }),
  unsub: declareClient({ type: 'unsub', frame: 'json', topic: null, schema: clientParams('unsub'), summary: '`params`: a topic name.' }),
} as const;

type ServerMessages = typeof serverMessages;
type ClientMessages = typeof clientMessages;
export type ServerMessageName = keyof ServerMessages;
export type ClientMessageName = keyof ClientMessages;
/** A server message by its declared name. */
export type ServerMessageOf<N extends ServerMessageName> = z.output<ServerMessages[N]['schema']>;
export type ClientMessageOf<N extends ClientMessageName> = z.output<ClientMessages[N]['schema']>;
/** Every message the server sends (JSON ones as objects, `pong` as its text). */
export type ServerMessage = { [N in ServerMessageName]: ServerMessageOf<N> }[ServerMessageName];
export type ClientMessage = { [N in ClientMessageName]: ClientMessageOf<N> }[ClientMessageName];
/** The names of the JSON messages, which carry a `type`. */
export type JsonServerMessageName = { [N in ServerMessageName]: ServerMessages[N]['frame'] extends 'json' ? N : never }[ServerMessageName];
export type JsonServerMessage = ServerMessageOf<JsonServerMessageName>;
/** A message's fields besides `type`. */
export type PushBody<N extends JsonServerMessageName> = Omit<ServerMessageOf<N>, 'type'>;

/**
 * Builds a server message: `type` first (as existing clients receive it), then the body as given.
 * The one way the server makes a frame's object, so its fields are those declared above.
 */
export function pushMessage<N extends JsonServerMessageName>(name: N, body: PushBody<N>): ServerMessageOf<N> {
  return { type: serverMessages[name].type, ...body } as ServerMessageOf<N>;
}

/** The text frame of a server text message (`pong`). */
export const PONG_TEXT: ServerMessageOf<'pong'> = serverMessages.pong.type;

/** A topic as a client names it, from a declaration's pattern (`KLINE.{code}` -> `KLINE.${string}`). */
type TopicOfPattern<P> = P extends `${infer Prefix}{code}` ? `${Prefix}${string}` : P;
type TopicOfName<N extends ServerMessageName> = TopicOfPattern<ServerMessages[N]['topic']>;
/** Every topic a client may subscribe to (or, for the announcements, listen to). */
export type SocketTopic = Exclude<{ [N in ServerMessageName]: TopicOfName<N> }[ServerMessageName], null>;
/** The message a topic carries. */
export type MessageOnTopic<T extends SocketTopic> = {
  [N in ServerMessageName]: T extends TopicOfName<N> ? ServerMessageOf<N> : never;
}[ServerMessageName];
