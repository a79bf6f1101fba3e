import type { NewsText } from '@tp/contract/schemas/content';

/**
 * One language's seeded content: the staff notice (setting announcement_<lang>) and the six seeded
 * news items in seedNews's order. HTML uses the same tags as the English text (the sanitizer's allow-list).
 */
export interface SeedTranslation {
  announcement: string;
  news: [NewsText, NewsText, NewsText, NewsText, NewsText, NewsText];
}
