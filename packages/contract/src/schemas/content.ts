import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';
import { dec } from '../decimal.ts';
import { LANG_CODES, type LangCode } from '../languages.ts';
import { boundedText, linkField, MAX_ID, optionalIdField, whole } from './fields.ts';

/** An integer parameter with a default; values above `max` are clamped (page sizes). */
export const intParam = (fallback: number, min: number, max: number) =>
  whole(
    z
      .number()
      .int()
      .min(min)
      .max(MAX_ID)
      .default(fallback)
      .transform((n) => Math.min(n, max)),
  );

export const optionalId = optionalIdField();
export const requiredId = whole(
  z.number({ error: 'msg:invalid_id' }).int('msg:invalid_id').positive('msg:invalid_id').max(MAX_ID, 'msg:invalid_id'),
);

/** Form booleans: 1/0, true/false, on/off. */
export const flagParam = z.preprocess(
  (v) => (typeof v === 'string' || typeof v === 'number' ? ['1', 'true', 'on', 'yes'].includes(String(v).toLowerCase()) : v),
  z.boolean(),
);

export const PageInput = z.object({
  page: intParam(1, 1, 1_000_000),
  limit: intParam(DEFAULT_PAGE_SIZE, 1, 50),
});

export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });

// ---------------------------------------------------------------- news
export const NewsListInput = PageInput.extend({ category_id: intParam(1, 1, 1_000_000) });
export const NewsInfoInput = z.object({ id: requiredId });

/** Times are ISO 8601 strings in UTC. */
export const NewsItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  desc: z.string(),
  logo: z.string(),
  created_at: z.string(),
});
/** `content` is sanitized HTML (allow-list of tags; no scripts, handlers or javascript: links). */
export const NewsDetailSchema = NewsItemSchema.extend({ content: z.string() });
export type NewsItem = z.infer<typeof NewsItemSchema>;
export type NewsDetail = z.infer<typeof NewsDetailSchema>;

/**
 * Languages a news item or the announcement notice is translated into: every language but English,
 * whose text is the reference (the item's own title, desc and content). Readers get their language's
 * text, field by field, falling back to English where staff left it empty.
 */
export const TRANSLATED_LANGS = LANG_CODES.filter((l) => l !== 'en') as Exclude<LangCode, 'en'>[];
export type TranslatedLang = (typeof TRANSLATED_LANGS)[number];

export const NewsTextSchema = z.object({ title: z.string(), desc: z.string(), content: z.string() });
export type NewsText = z.infer<typeof NewsTextSchema>;

export const AdminNewsSchema = NewsDetailSchema.extend({
  category_id: z.number().int(),
  published: z.boolean(),
  /** The text per language other than English, as stored (fields may be empty); languages with no text are absent. */
  translations: z.record(z.string(), NewsTextSchema),
});
/** A row of the back office's news list: the editor's fields without the content and translations. */
export const AdminNewsItemSchema = AdminNewsSchema.omit({ content: true, translations: true });
export const NEWS_CONTENT_MAX = 200_000;
const NewsTextInput = z.object({
  title: z.string().trim().max(200, 'msg:news_title_too_long').default(''),
  desc: z.string().trim().max(1000, 'msg:news_desc_too_long').default(''),
  content: z.string().max(NEWS_CONTENT_MAX, 'msg:news_content_too_long').default(''),
});
export const NewsSaveInput = z.object({
  id: optionalId,
  category_id: intParam(1, 1, 1_000_000),
  title: z.string({ error: 'msg:news_title_required' }).trim().min(1, 'msg:news_title_required').max(200, 'msg:news_title_too_long'),
  desc: z.string().trim().max(1000, 'msg:news_desc_too_long').default(''),
  logo: linkField(2048).default(''),
  content: z
    .string({ error: 'msg:news_content_required' })
    .min(1, 'msg:news_content_required')
    .max(NEWS_CONTENT_MAX, 'msg:news_content_too_long'),
  published: flagParam.default(true),
  /** Text per language other than English; a language left out or empty is served in English. Replaces all stored translations. */
  translations: z.partialRecord(z.enum(TRANSLATED_LANGS as [TranslatedLang, ...TranslatedLang[]]), NewsTextInput).default({}),
});
export const AdminNewsListInput = PageInput.extend({ category_id: optionalId });

// ---------------------------------------------------------------- company
/** The company chosen in the app is remembered in this cookie for COMPANY_COOKIE_MAX_AGE_S. */
export const COMPANY_COOKIE = 'company_id';

export const CompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  logo: z.string(),
  url: z.string(),
  subject: z.string(),
  registered_address: z.string(),
  location: z.string(),
  email: z.string(),
});
export type Company = z.infer<typeof CompanySchema>;

export const CompanyIdInput = z.object({ id: optionalId });
export const CompanySearchInput = PageInput.extend({ name: boundedText(100).default('') });
export const CompanyStatusSchema = z.object({ status: z.number().int(), loss_url: z.string() });
export const SupportEmailSchema = z.object({ email: z.string() });

export const AdminCompanySchema = CompanySchema.extend({ status: z.number().int(), loss_url: z.string(), is_main: z.boolean() });
const text = (max: number) => boundedText(max).default('');
export const CompanySaveInput = z.object({
  id: optionalId,
  name: z.string({ error: 'msg:company_name_required' }).trim().min(1, 'msg:company_name_required').max(200),
  logo: linkField(2048).default(''),
  url: linkField(2048).default(''),
  subject: text(2000),
  registered_address: text(500),
  location: text(500),
  email: z.union([z.literal(''), z.string().trim().email('msg:company_email_invalid').max(254)]).default(''),
  status: whole(z.number({ error: 'msg:invalid_number' }).int().min(0).max(32_767).default(0)),
  loss_url: linkField(2048).default(''),
  is_main: flagParam.default(false),
});

// ---------------------------------------------------------------- announcement and settings
export const AnnouncementSchema = z.object({
  /** Translated server-side: the countries the service is not provided to. */
  announcement: z.string(),
  excluded_countries: z.array(z.string()),
  /**
   * Staff's own notice in the request's language (setting `announcement_<lang>`, else the English
   * `announcement`), shown as plain text; may be empty.
   */
  notice: z.string(),
  company: CompanySchema,
});

/** The setting holding the announcement notice in a language other than English (`announcement` holds English). */
export const announcementKey = (lang: TranslatedLang) => `announcement_${lang}` as const;
export type AnnouncementLangKey = ReturnType<typeof announcementKey>;
export const ANNOUNCEMENT_LANG_KEYS = TRANSLATED_LANGS.map(announcementKey);

/** Settings staff may change from the back office; the risk levels need the risk role (the fee type has its own calls, /api/admin/fees). */
export const CONTENT_SETTING_KEYS = [
  'service_link',
  'service_link_type',
  'verify_reg_type',
  'announcement',
  ...ANNOUNCEMENT_LANG_KEYS,
  'is_show_mobile',
  'allow_http_links',
  'ranking_min_trades',
] as const;
/**
 * Closed trades in the ranking's window a trader needs to be ranked, when staff set none: one lucky
 * (or unlucky) trade says little about a trader. 0 ranks everyone with a closed trade.
 */
export const RANKING_MIN_TRADES_DEFAULT = 5;
export const RISK_SETTING_KEYS = ['margin_call_level', 'stop_out_level'] as const;
export const EDITABLE_SETTING_KEYS = [...CONTENT_SETTING_KEYS, ...RISK_SETTING_KEYS] as const;
export type EditableSettingKey = (typeof EDITABLE_SETTING_KEYS)[number];

const choice = (...values: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => values.includes(v));
/** A margin level in percent: above 0 and at most `max` (a stop-out above 100 % would close healthy accounts). */
const percentLevel = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,4}(\.\d{1,2})?$/)
    .refine((v) => dec(v).gt(0) && dec(v).lte(max));

/** Each editable setting's value rule (values are stored as strings). */
export const SettingValueRules: Record<EditableSettingKey, z.ZodType<string>> = {
  service_link: linkField(500),
  service_link_type: choice('1', '2', '3'),
  verify_reg_type: choice('1', '2'),
  announcement: z.string().trim().max(4000),
  ...(Object.fromEntries(ANNOUNCEMENT_LANG_KEYS.map((k) => [k, z.string().trim().max(4000)])) as unknown as Record<
    AnnouncementLangKey,
    z.ZodType<string>
  >),
  is_show_mobile: choice('0', '1'),
  /** 1 lets staff store http: links (settings, company, news); https, mailto and relative paths always. */
  allow_http_links: choice('0', '1'),
  /** A whole number of closed trades, 0 to 1000. */
  ranking_min_trades: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/)
    .refine((v) => Number(v) <= 1000),
  margin_call_level: percentLevel(1000),
  stop_out_level: percentLevel(100),
};
const asText = (v: unknown) => (typeof v === 'number' ? String(v) : v);

/** Any subset of the editable settings; other keys are refused by the server (not silently dropped). */
export const SettingsSaveInput = z.looseObject(
  Object.fromEntries(EDITABLE_SETTING_KEYS.map((k) => [k, z.preprocess(asText, SettingValueRules[k]).optional()])) as unknown as Record<
    EditableSettingKey,
    z.ZodType<string | undefined>
  >,
);
export const SettingsSchema = z.record(z.string(), z.string());
