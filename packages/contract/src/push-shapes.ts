// Generated from pushes.ts by `npm run docs:socket` (pushes.test.ts fails when it is out of date): do not edit.
import type { ServerMessageName, SocketAudience } from './pushes.ts';
import type { WireShape } from './wire-shape.ts';

export interface ServerMessageShape {
  readonly name: ServerMessageName;
  readonly type: string;
  readonly frame: 'json' | 'text';
  readonly topic: string | null;
  readonly audience: SocketAudience;
  readonly shape: WireShape;
}

export const SERVER_MESSAGE_SHAPES: readonly ServerMessageShape[] = [
  {
    name: 'pong',
    type: 'pong',
    frame: 'text',
    topic: null,
    audience: 'reply',
    shape: {
      const: 'pong',
    },
  },
  {
    name: 'error',
    type: 'error',
    frame: 'json',
    topic: null,
    audience: 'reply',
    shape: {
      object: {
        type: {
          const: 'error',
        },
        code: 'number',
        msg: 'string',
      },
    },
  },
  {
    name: 'login_result',
    type: 'login_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    shape: {
      object: {
        type: {
          const: 'login_result',
        },
        code: 'number',
        msg: 'string',
      },
    },
  },
  {
    name: 'logout_result',
    type: 'logout_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    shape: {
      object: {
        type: {
          const: 'logout_result',
        },
        code: 'number',
        msg: 'string',
      },
    },
  },
  {
    name: 'sub_result',
    type: 'sub_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    shape: {
      object: {
        type: {
          const: 'sub_result',
        },
        code: 'number',
        msg: 'string',
        topic: 'string',
      },
    },
  },
  {
    name: 'unsub_result',
    type: 'unsub_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    shape: {
      object: {
        type: {
          const: 'unsub_result',
        },
        code: 'number',
        msg: 'string',
        topic: 'string',
      },
    },
  },
  {
    name: 'replay_result',
    type: 'replay_result',
    frame: 'json',
    topic: null,
    audience: 'reply',
    shape: {
      object: {
        type: {
          const: 'replay_result',
        },
        code: 'number',
        msg: 'string',
        data: {
          object: {
            complete: 'boolean',
            count: 'number',
          },
        },
      },
    },
  },
  {
    name: 'session_ended',
    type: 'session_ended',
    frame: 'json',
    topic: null,
    audience: 'session',
    shape: {
      object: {
        type: {
          const: 'session_ended',
        },
        reason: {
          oneOf: ['logout', 'password_changed', 'disabled', 'ended_by_staff', 'expired'],
        },
        msg: 'string',
      },
    },
  },
  {
    name: 'DAY_MARKET',
    type: 'DAY_MARKET',
    frame: 'json',
    topic: 'DAY_MARKET',
    audience: 'quote',
    shape: {
      object: {
        type: {
          const: 'DAY_MARKET',
        },
        symbol: 'string',
        time: 'number',
        quotation: {
          object: {
            id: 'number',
            forex_id: 'number',
            open: 'string',
            high: 'string',
            low: 'string',
            close: 'string',
            change: 'string',
            volume: 'string',
            amount: 'string',
            bid: 'string',
            ask: 'string',
            time: 'number',
            market_status: {
              oneOf: [1, 2],
            },
            market_status_reason: {
              anyOf: [
                {
                  oneOf: ['closed', 'stale', 'no_quote'],
                },
                'null',
              ],
            },
          },
        },
      },
    },
  },
  {
    name: 'KLINE',
    type: 'KLINE',
    frame: 'json',
    topic: 'KLINE.{code}',
    audience: 'quote',
    shape: {
      object: {
        type: {
          const: 'KLINE',
        },
        symbol: 'string',
        forex_id: 'number',
        time: 'number',
        kline: {
          object: {
            Id: 'number',
            Time: 'number',
            Open: 'string',
            High: 'string',
            Low: 'string',
            Close: 'string',
            Volume: 'string',
            Amount: 'string',
            Change: 'string',
            Period: 'string',
            Code: 'string',
            ForexId: 'number',
          },
        },
      },
    },
  },
  {
    name: 'MARKET_DEPTH',
    type: 'MARKET_DEPTH',
    frame: 'json',
    topic: 'MARKET_DEPTH.{code}',
    audience: 'quote',
    shape: {
      object: {
        type: {
          const: 'MARKET_DEPTH',
        },
        symbol: 'string',
        forex_id: 'number',
        time: 'number',
        bids: {
          array: {
            tuple: ['string', 'string'],
          },
        },
        asks: {
          array: {
            tuple: ['string', 'string'],
          },
        },
      },
    },
  },
  {
    name: 'FOREX_TRADE',
    type: 'FOREX_TRADE',
    frame: 'json',
    topic: 'FOREX_TRADE',
    audience: 'user',
    shape: {
      object: {
        type: {
          const: 'FOREX_TRADE',
        },
        To: 'number',
        HazardRate: 'string',
        CautionMoneyAll: 'string',
        ProfitsTotal: 'string',
        OriginCautionMoneyTotal: 'string',
        TransOrder: {
          array: {
            object: {
              Id: 'number',
              UserId: 'number',
              ForexId: 'number',
              OrderType: 'number',
              Status: 'number',
              Quantity: 'string',
              Multiple: 'number',
              OriginPrice: 'string',
              Price: 'string',
              UpdatePrice: 'string',
              TargetProfitPrice: 'string',
              TargetLossPrice: 'string',
              CautionMoney: 'string',
              TradeFee: 'string',
              FactProfits: 'string',
              Swap: 'string',
              ClosedType: 'number',
              CancelReason: 'string',
              Reversed: 'number',
              PendingType: {
                oneOf: ['', 'buy_limit', 'sell_limit', 'buy_stop', 'sell_stop'],
              },
              ExpireTime: 'number',
              TrailingPoints: 'number',
              ForexContNum: 'string',
              CreateTime: 'number',
              CompleteTime: 'number',
              CreateTimeHandler: 'string',
              CompleteTimeHandler: 'string',
              ForexTradeLists: {
                object: {
                  Id: 'number',
                  Code: 'string',
                  ShowCode: 'string',
                  PricePrecision: 'number',
                  Logo: 'string',
                },
              },
            },
          },
        },
        balance: 'string',
        lock_balance: 'string',
        equity: 'string',
        available_prepayment: 'string',
        prepayment_ratio: 'string',
        margin_call: {
          oneOf: [0, 1],
        },
      },
    },
  },
  {
    name: 'FOREX_CLOSED',
    type: 'FOREX_CLOSED',
    frame: 'json',
    topic: 'FOREX_CLOSED',
    audience: 'user',
    shape: {
      object: {
        type: {
          const: 'FOREX_CLOSED',
        },
        id: {
          array: 'number',
        },
        seq: 'number',
      },
      optional: ['seq'],
    },
  },
  {
    name: 'NOTICE',
    type: 'NOTICE',
    frame: 'json',
    topic: 'NOTICE',
    audience: 'announcement',
    shape: {
      object: {
        type: {
          const: 'NOTICE',
        },
        kind: {
          oneOf: [
            'take_profit',
            'stop_loss',
            'trailing_stop',
            'stop_out',
            'staff_close',
            'demo_reset',
            'pending_filled',
            'pending_cancelled',
            'margin_call',
            'copy_close',
            'deposit_approved',
            'deposit_rejected',
            'withdrawal_paid',
            'withdrawal_rejected',
            'identity_verified',
            'identity_rejected',
            'support_reply',
            'copy_fee_unpaid',
          ],
        },
        order_id: 'number',
        forex_id: 'number',
        symbol: 'string',
        order_type: 'number',
        lots: 'string',
        price: 'string',
        profit: 'string',
        time: 'number',
        amount: 'string',
        currency: 'string',
        reason: 'string',
        seq: 'number',
      },
      optional: ['amount', 'currency', 'reason', 'seq'],
    },
  },
  {
    name: 'ALERT',
    type: 'ALERT',
    frame: 'json',
    topic: 'ALERT',
    audience: 'announcement',
    shape: {
      object: {
        type: {
          const: 'ALERT',
        },
        id: 'number',
        forex_id: 'number',
        symbol: 'string',
        side: {
          oneOf: ['bid', 'ask'],
        },
        direction: {
          oneOf: [1, -1],
        },
        price: 'string',
        email: {
          oneOf: [0, 1],
        },
        created_at: 'number',
        fired_at: 'number',
        fired_price: 'string',
      },
    },
  },
  {
    name: 'CHAT',
    type: 'CHAT',
    frame: 'json',
    topic: 'CHAT',
    audience: 'user',
    shape: {
      object: {
        type: {
          const: 'CHAT',
        },
        message: {
          object: {
            id: 'number',
            sender: {
              oneOf: ['user', 'staff'],
            },
            body: 'string',
            image_url: {
              anyOf: ['string', 'null'],
            },
            created_at: 'string',
          },
        },
      },
    },
  },
  {
    name: 'SUPPORT',
    type: 'CHAT',
    frame: 'json',
    topic: 'SUPPORT',
    audience: 'staff',
    shape: {
      object: {
        type: {
          const: 'CHAT',
        },
        user_id: 'number',
        message: {
          object: {
            id: 'number',
            sender: {
              oneOf: ['user', 'staff'],
            },
            body: 'string',
            image_url: {
              anyOf: ['string', 'null'],
            },
            created_at: 'string',
          },
        },
      },
    },
  },
  {
    name: 'DESK',
    type: 'DESK',
    frame: 'json',
    topic: 'DESK',
    audience: 'staff',
    shape: {
      object: {
        type: {
          const: 'DESK',
        },
        real: {
          object: {
            is_demo: 'number',
            source: {
              oneOf: ['engine', 'database'],
            },
            time: 'number',
            symbols: {
              array: {
                object: {
                  symbol_id: 'number',
                  code: 'string',
                  positions: 'number',
                  long_lots: 'string',
                  short_lots: 'string',
                  net_lots: 'string',
                  long_usd: 'string',
                  short_usd: 'string',
                  net_usd: 'string',
                  house_floating: 'string',
                  limit_lots: {
                    anyOf: ['string', 'null'],
                  },
                  over_limit: 'number',
                },
                optional: ['limit_lots', 'over_limit'],
              },
            },
            totals: {
              object: {
                positions: 'number',
                long_usd: 'string',
                short_usd: 'string',
                net_usd: 'string',
                house_floating: 'string',
              },
            },
            groups: {
              array: {
                object: {
                  group_id: 'number',
                  name: 'string',
                  book: {
                    oneOf: ['B', 'A', 'hybrid'],
                  },
                  symbols: {
                    array: {
                      object: {
                        symbol_id: 'number',
                        code: 'string',
                        positions: 'number',
                        long_lots: 'string',
                        short_lots: 'string',
                        net_lots: 'string',
                        long_usd: 'string',
                        short_usd: 'string',
                        net_usd: 'string',
                        house_floating: 'string',
                        limit_lots: {
                          anyOf: ['string', 'null'],
                        },
                        over_limit: 'number',
                      },
                      optional: ['limit_lots', 'over_limit'],
                    },
                  },
                  totals: {
                    object: {
                      positions: 'number',
                      long_usd: 'string',
                      short_usd: 'string',
                      net_usd: 'string',
                      house_floating: 'string',
                    },
                  },
                },
              },
            },
            house_realised_today: 'string',
          },
        },
        demo: {
          object: {
            is_demo: 'number',
            source: {
              oneOf: ['engine', 'database'],
            },
            time: 'number',
            symbols: {
              array: {
                object: {
                  symbol_id: 'number',
                  code: 'string',
                  positions: 'number',
                  long_lots: 'string',
                  short_lots: 'string',
                  net_lots: 'string',
                  long_usd: 'string',
                  short_usd: 'string',
                  net_usd: 'string',
                  house_floating: 'string',
                  limit_lots: {
                    anyOf: ['string', 'null'],
                  },
                  over_limit: 'number',
                },
                optional: ['limit_lots', 'over_limit'],
              },
            },
            totals: {
              object: {
                positions: 'number',
                long_usd: 'string',
                short_usd: 'string',
                net_usd: 'string',
                house_floating: 'string',
              },
            },
            groups: {
              array: {
                object: {
                  group_id: 'number',
                  name: 'string',
                  book: {
                    oneOf: ['B', 'A', 'hybrid'],
                  },
                  symbols: {
                    array: {
                      object: {
                        symbol_id: 'number',
                        code: 'string',
                        positions: 'number',
                        long_lots: 'string',
                        short_lots: 'string',
                        net_lots: 'string',
                        long_usd: 'string',
                        short_usd: 'string',
                        net_usd: 'string',
                        house_floating: 'string',
                        limit_lots: {
                          anyOf: ['string', 'null'],
                        },
                        over_limit: 'number',
                      },
                      optional: ['limit_lots', 'over_limit'],
                    },
                  },
                  totals: {
                    object: {
                      positions: 'number',
                      long_usd: 'string',
                      short_usd: 'string',
                      net_usd: 'string',
                      house_floating: 'string',
                    },
                  },
                },
              },
            },
            house_realised_today: 'string',
          },
        },
      },
    },
  },
];
