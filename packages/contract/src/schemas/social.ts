import { z } from 'zod';

/** One trader of the ranking (GET /api/follow/list). Rates are percents with 2 decimals, as strings. */
export const RankingItemSchema = z.object({
  /** Display name, else a masked email ('jo***@gm***.com') or mobile ('138****5678'). */
  user: z.string(),
  /** The leverage used most in the window. */
  multiple: z.number().int(),
  /** Sum of profits / sum of margin x 100 over the window. */
  three_week_rate: z.string(),
  /** Winning closed orders / closed orders x 100 over the window. */
  three_week_win: z.string(),
  /** Sum of profits over the window, 6 decimals. */
  three_week_profit: z.string(),
  /** Profit rate over all real closed orders. */
  total_rate: z.string(),
  total_trade_num: z.number().int(),
  /** ShowCode of the symbol traded most in the window. */
  code: z.string(),
  /** Copy-trading followers: always 0 until copy trading exists. */
  followers: z.number().int(),
});
export type RankingItem = z.infer<typeof RankingItemSchema>;
