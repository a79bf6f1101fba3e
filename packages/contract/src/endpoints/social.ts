import { endpoint } from '../endpoint.ts';
import { PageInput, pageOf } from '../schemas/content.ts';
import { RankingItemSchema } from '../schemas/social.ts';

/** The trader ranking (copy-trading list). */
export const followList = endpoint({
  method: 'GET',
  path: '/api/follow/list',
  auth: 'none',
  input: PageInput,
  output: pageOf(RankingItemSchema),
  summary: 'Trader ranking (copy-trading list) over the last three weeks of real closed orders, best profit rate first; refreshed every minute',
  tags: ['social'],
});
