/** Constants fixed by the product specification, section 9. */
export const WS_PATH = '/v1/ws';
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** The client reconnects once more than this many pings went unanswered. */
export const MAX_MISSED_PINGS = 2;
export const WS_CONNECT_TIMEOUT_MS = 5_000;
export const RESEND_CODE_COUNTDOWN_S = 60;
export const MAX_UPLOAD_IMAGES = 1;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const PULL_TO_REFRESH_CLOSE_MS = 500;
export const SKELETON_ROWS = 10;
export const COMPANY_COOKIE_MAX_AGE_S = 3 * 365 * 24 * 60 * 60;
export const DOCUMENTARY_WINDOW_DAYS = 21;
export const DEFAULT_PAGE_SIZE = 10;
export const BALANCE_DECIMALS = 2;
export const PROFIT_DECIMALS = 6;
export const MONEY_SCALE = 6;

/** Chart periods: the label the app shows and the period name the API takes. */
export const PERIODS = [
  { label: '1M', period: '1min', seconds: 60 },
  { label: '5M', period: '5min', seconds: 300 },
  { label: '15M', period: '15min', seconds: 900 },
  { label: '30M', period: '30min', seconds: 1800 },
  { label: '1H', period: '60min', seconds: 3600 },
  { label: '1D', period: '1day', seconds: 86_400 },
] as const;
export type PeriodName = (typeof PERIODS)[number]['period'];
export type PeriodLabel = (typeof PERIODS)[number]['label'];
export const PERIOD_NAMES = PERIODS.map((p) => p.period) as PeriodName[];
export const periodSeconds = (period: PeriodName): number => PERIODS.find((p) => p.period === period)!.seconds;

export const MarketStatus = { OPEN: 1, CLOSED: 2 } as const;
/** Why a symbol is not tradable: outside its sessions, its live quote is too old, or no live quote since start. */
export const MARKET_STATUS_REASONS = ['closed', 'stale', 'no_quote'] as const;
export type MarketStatusReason = (typeof MARKET_STATUS_REASONS)[number];
export const OrderType = { BUY: 1, SELL: 2 } as const;
export const OrderStatus = { PENDING: 0, OPEN: 1, CLOSED: 3, CANCELLED: 4 } as const;
/** Why the system or the trader cancelled a pending order (orders.cancel_reason; the app translates each). */
export const CANCEL_REASONS = [
  'user',
  'expired',
  'insufficient_margin',
  'stop_out',
  'demo_reset',
  // Refused when it came to fill: the symbol was halted, its limits changed, or the account's positions cap was reached.
  'symbol_not_tradable',
  'limits_changed',
  'position_limit',
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
/**
 * Why a position closed. 1-6 as ever; 7-9 (added with copy trading, existing values unchanged) are closes
 * the copier made on a follower's behalf: 7 the provider closed (or shrank) the copied position, 8 the
 * copy stop-loss stopped the subscription, 9 the follower unfollowed closing the copies.
 */
export const ClosedType = {
  USER: 1,
  STOP_OUT: 2,
  TAKE_PROFIT: 3,
  STOP_LOSS: 4,
  STAFF: 5,
  DEMO_RESET: 6,
  COPY_PROVIDER: 7,
  COPY_STOP_LOSS: 8,
  COPY_UNFOLLOW: 9,
} as const;
/** The close types the copier records (never a trader's own close). */
export type CopyClosedType = typeof ClosedType.COPY_PROVIDER | typeof ClosedType.COPY_STOP_LOSS | typeof ClosedType.COPY_UNFOLLOW;
export const MarginMode = { FLOATING: 1, FIXED: 2 } as const;
export const TradeFeeType = { PER_LOT: 1, PERCENT_OF_MARGIN: 2 } as const;
/** A symbol's swap (overnight financing) is given in points per lot or in percent a year of the position's value (MT5). */
export const SwapType = { NONE: 0, POINTS: 1, PERCENT_PER_YEAR: 2 } as const;
export const ReviewStatus = { NOT_SUBMITTED: 0, UNDER_REVIEW: 1, VERIFIED: 2, REJECTED: 3 } as const;
export const DepositStatus = { UNCHECKED: 0, FINISHED: 1, REJECTED: 2, INVALID: 3 } as const;
export const DepositType = { COIN: 0, BANK: 1 } as const;
export const ServiceLinkType = { COPY: 2, REDIRECT: 3 } as const;
export const VerifyRegType = { CODE: 1, CAPTCHA: 2 } as const;

export const EXCLUDED_COUNTRIES = ['North Korea', 'China', 'Vanuatu', 'Cuba'] as const;

export const WsTopic = {
  DAY_MARKET: 'DAY_MARKET',
  FOREX_TRADE: 'FOREX_TRADE',
  FOREX_CLOSED: 'FOREX_CLOSED',
  /** Support chat messages for the logged-in user ({type: 'CHAT', message}). */
  CHAT: 'CHAT',
  /** A close or fill the trader did not make (take-profit, stop-loss, trailing stop, stop-out...) for the logged-in user. */
  NOTICE: 'NOTICE',
  /** A price alert of the logged-in user fired. */
  ALERT: 'ALERT',
  /** The support desk's feed of every chat message (staff connections with the support role). */
  SUPPORT: 'SUPPORT',
  /** The dealer's desk: live exposure and house profit (staff connections with the risk role). */
  DESK: 'DESK',
  KLINE_PREFIX: 'KLINE.',
  /** Top of book of one symbol ({type: 'MARKET_DEPTH', symbol, bids: [[price, lots]], asks: [[price, lots]], time}). */
  MARKET_DEPTH_PREFIX: 'MARKET_DEPTH.',
} as const;

/**
 * The push a socket gets when its session ends anywhere (logout, password change or reset,
 * account disabled, ended by staff, expired): {type: 'session_ended', reason, msg}. No pushes follow.
 */
export const SESSION_ENDED_PUSH = 'session_ended';
export const SESSION_END_REASONS = ['logout', 'password_changed', 'disabled', 'ended_by_staff', 'expired'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/**
 * The length a new trader password must have, in characters (code points), enforced by the server
 * (message `password_length`) and shown and checked by the forms before they send it.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** True when a new password has the length the server accepts. */
export const passwordLengthOk = (password: string): boolean => {
  const length = [...password].length;
  return length >= PASSWORD_MIN && length <= PASSWORD_MAX;
};
