import { boolean, integer, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/** The content module's tables: only the content module reads or writes them (other modules go through its service). */

export const company = pgTable('company', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull().default(''),
  url: text('url').notNull().default(''),
  subject: text('subject').notNull().default(''),
  registeredAddress: text('registered_address').notNull().default(''),
  location: text('location').notNull().default(''),
  email: text('email').notNull().default(''),
  /** Main-mode check: nonzero sends the app to loss_url. */
  status: smallint('status').notNull().default(0),
  lossUrl: text('loss_url').notNull().default(''),
  isMain: boolean('is_main').notNull().default(false),
});

export const news = pgTable('news', {
  id: serial('id').primaryKey(),
  categoryId: integer('category_id').notNull().default(1),
  title: text('title').notNull(),
  desc: text('desc').notNull().default(''),
  logo: text('logo').notNull().default(''),
  /** Sanitized HTML. */
  content: text('content').notNull(),
  published: boolean('published').notNull().default(true),
  createdAt: createdAt(),
});

/**
 * A news item's text in one language other than English (the `news` row holds the English text, the
 * reference staff translate from). A field left empty falls back to the English one when served.
 */
export const newsTexts = pgTable(
  'news_texts',
  {
    newsId: integer('news_id')
      .notNull()
      .references(() => news.id, { onDelete: 'cascade' }),
    lang: text('lang').notNull(),
    title: text('title').notNull().default(''),
    desc: text('desc').notNull().default(''),
    /** Sanitized HTML; may be empty. */
    content: text('content').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.newsId, t.lang] })],
);
