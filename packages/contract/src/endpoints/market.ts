import { endpoint } from '../endpoint.ts';
import {
  AbbreviatedKlineInput,
  AbbreviatedKlineResponse,
  CategoriesResponse,
  FavouriteInput,
  FavouritesResponse,
  KlineInput,
  KlineResponse,
  TradeListInput,
  TradeListResponse,
} from '../schemas/market.ts';

/** Existing clients send the market calls as GET with a query; POST with a form body is accepted too. */
const GET_POST = ['GET', 'POST'] as const;

/** Symbols, categories and candles (spec section 5). */
export const tradeList = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/trade_list',
  auth: 'optional',
  input: TradeListInput,
  output: TradeListResponse,
  summary:
    "Tradable symbols with their terms and live quotes (searchCurrency filters on Code or ShowCode). Signed in, the terms (leverages, largest lot, fee rate) are those of the caller's account group and only its symbols are listed; a guest sees the default real group's",
  tags: ['market'],
});

export const categories = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/getCategories',
  auth: 'none',
  output: CategoriesResponse,
  summary: 'Symbol categories with names translated by the lang header',
  tags: ['market'],
});

/** The same categories under the shorter path. */
export const categoriesAlias = endpoint({ ...categories, path: '/v1/api/forex/categories' });

export const kline = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/kline',
  auth: 'none',
  input: KlineInput,
  output: KlineResponse,
  summary: 'Candle bars oldest first; page back with before (exclusive) or end (inclusive), limit up to 1000',
  tags: ['market'],
});

export const abbreviatedKline = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/abbreviated_cache_kline',
  auth: 'none',
  input: AbbreviatedKlineInput,
  output: AbbreviatedKlineResponse,
  summary: 'The short recent series (last 48 bars) the market list draws; cached briefly',
  tags: ['market'],
});

/** Favourites: the symbols a trader starred, kept per user (guests keep theirs in the browser). */
export const favourites = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/favourites',
  auth: 'user',
  output: FavouritesResponse,
  summary: 'Ids of the symbols the trader starred, oldest first',
  tags: ['market'],
});

export const favouriteAdd = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/favourite/add',
  auth: 'user',
  input: FavouriteInput,
  output: FavouritesResponse,
  summary: 'Stars a symbol (adding one already starred changes nothing); answers the new list',
  tags: ['market'],
});

export const favouriteRemove = endpoint({
  method: GET_POST,
  path: '/v1/api/forex/favourite/remove',
  auth: 'user',
  input: FavouriteInput,
  output: FavouritesResponse,
  summary: 'Unstars a symbol (removing one not starred changes nothing); answers the new list',
  tags: ['market'],
});
