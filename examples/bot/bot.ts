/**
 * Example bot: a trade-scoped API key, the quotes over the websocket, one market buy with take-profit
 * and stop-loss, its FOREX_TRADE push, then the close and its FOREX_CLOSED push. Each step is printed.
 *
 *   TP_BASE_URL=https://broker.example TP_API_KEY=tpk_... npx tsx examples/bot/bot.ts
 *
 * HTTP calls are signed with the key's secret (X-API-Signature), so the secret itself never travels;
 * the socket logs in with the key. Prices are decimal strings, computed with decimal.js.
 */
import { userInfo } from '@tp/contract/endpoints/auth';
import { tradeList } from '@tp/contract/endpoints/market';
import { close, getBalance, submit } from '@tp/contract/endpoints/trading';
import { dec, fixed } from '@tp/contract/decimal';
import { createClient, splitApiKey } from '@tp/contract/sdk';

const baseUrl = process.env.TP_BASE_URL ?? 'http://127.0.0.1:3000';
const apiKey = process.env.TP_API_KEY;
const symbol = process.env.TP_SYMBOL ?? 'BTCUSDT';
/** How far from the entry the take-profit and stop-loss sit, as a fraction of the price. */
const DISTANCE = dec(process.env.TP_DISTANCE ?? '0.02');
const PUSH_WAIT_MS = Number(process.env.TP_PUSH_WAIT_MS ?? 15_000);

if (!apiKey) {
  console.error('Set TP_API_KEY to a key made in the user centre (API keys), with the trade permission.');
  process.exit(2);
}

const step = (n: number, text: string) => console.log(`[${n}] ${text}`);

const { keyId, secret } = splitApiKey(apiKey);
const client = createClient({ baseUrl, keyId, secret, lang: 'en' });
const market = createClient({ baseUrl, lang: 'en' });

const me = await client.call(userInfo);
const cash = await client.call(getBalance);
step(1, `logged in with key ${keyId} as UID ${me.uid}: balance ${cash.balance} ${cash.currency}`);

const row = (await market.call(tradeList, { searchCurrency: symbol })).find((s) => s.Code === symbol);
if (!row) throw new Error(`${symbol} is not listed`);
const leverage = row.HasForexMultiple[0]?.Value;
if (leverage === undefined) throw new Error(`${symbol} has no leverage configured`);

const socket = await client.socket();
const quotes = await socket.subscribe('DAY_MARKET');
const trades = await socket.subscribe('FOREX_TRADE');
const closes = await socket.subscribe('FOREX_CLOSED');
const quote = await quotes.next((m) => m.symbol === symbol, PUSH_WAIT_MS);
step(2, `socket logged in; ${symbol} quote bid ${quote.quotation.bid} ask ${quote.quotation.ask}`);
quotes.unsubscribe();

const ask = dec(quote.quotation.ask);
const takeProfit = fixed(ask.times(dec(1).plus(DISTANCE)), row.PricePrecision);
const stopLoss = fixed(dec(quote.quotation.bid).times(dec(1).minus(DISTANCE)), row.PricePrecision);
const order = await client.call(submit, {
  type: 1,
  status: 1,
  forex_id: row.Id,
  cont: row.ForexMinCont,
  multiple: leverage,
  target_profit_price: takeProfit,
  stop_loss_price: stopLoss,
});
step(
  3,
  `bought ${order.Quantity} lots of ${symbol} at ${order.Price} (order ${order.Id}, x${leverage}), TP ${order.TargetProfitPrice}, SL ${order.TargetLossPrice}`,
);

const snapshot = await trades.next((m) => m.TransOrder.some((o) => o.Id === order.Id), PUSH_WAIT_MS);
const held = snapshot.TransOrder.find((o) => o.Id === order.Id)!;
step(
  4,
  `FOREX_TRADE: order ${held.Id} open, floating profit ${held.FactProfits}, equity ${snapshot.equity}, margin ${snapshot.CautionMoneyAll}`,
);

const closed = await client.call(close, { id: order.Id });
step(5, `closed order ${order.Id} at ${closed.Price}: profit ${closed.FactProfits}`);

const gone = await closes.next((m) => m.id.includes(order.Id), PUSH_WAIT_MS);
step(6, `FOREX_CLOSED: orders ${gone.id.join(', ')}`);

socket.close();
step(7, 'done');
