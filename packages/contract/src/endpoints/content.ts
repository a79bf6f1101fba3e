import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  AdminCompanySchema,
  AdminNewsItemSchema,
  AdminNewsListInput,
  AdminNewsSchema,
  AnnouncementSchema,
  CompanyIdInput,
  CompanySaveInput,
  CompanySchema,
  CompanySearchInput,
  CompanyStatusSchema,
  NewsDetailSchema,
  NewsInfoInput,
  NewsItemSchema,
  NewsListInput,
  NewsSaveInput,
  pageOf,
  SettingsSaveInput,
  SettingsSchema,
  SupportEmailSchema,
} from '../schemas/content.ts';
import { PendingChangeAnswer } from '../schemas/admin.ts';

// ---------------------------------------------------------------- news, companies, announcement (public)

export const newsList = endpoint({
  method: 'GET',
  path: '/api/news/list',
  auth: 'none',
  input: NewsListInput,
  output: pageOf(NewsItemSchema),
  summary: 'Published news of a category, newest first (category_id 1 by default)',
  tags: ['content'],
});

export const newsInfo = endpoint({
  method: 'GET',
  path: '/api/news/info',
  auth: 'none',
  input: NewsInfoInput,
  output: NewsDetailSchema,
  summary: 'One published news item; content is sanitized HTML',
  tags: ['content'],
});

export const getCompany = endpoint({
  method: 'GET',
  path: '/api/company/getCompany',
  auth: 'none',
  input: CompanyIdInput,
  output: CompanySchema,
  summary:
    'Company data: by id, else the one remembered in the company_id cookie, else the main company. With a known id, sets that cookie for 3 years',
  tags: ['content'],
});

export const searchCompanies = endpoint({
  method: 'GET',
  path: '/api/company/search',
  auth: 'none',
  input: CompanySearchInput,
  output: pageOf(CompanySchema),
  summary: 'Companies whose name contains `name` (case-insensitive), main company first',
  tags: ['content'],
});

export const companyStatus = endpoint({
  method: 'GET',
  path: '/api/company/getCompanyStatus',
  auth: 'none',
  input: CompanyIdInput,
  output: CompanyStatusSchema,
  summary: 'Main-mode check: a nonzero status means the app must go to loss_url',
  tags: ['content'],
});

export const supportEmail = endpoint({
  method: 'GET',
  path: '/api/company/getSupportEmail',
  auth: 'none',
  input: CompanyIdInput,
  output: SupportEmailSchema,
  summary: "The company's support email",
  tags: ['content'],
});

export const announcement = endpoint({
  method: 'GET',
  path: '/api/default/announcement',
  auth: 'none',
  input: CompanyIdInput,
  output: AnnouncementSchema,
  summary: 'Announcement page: the translated notice of excluded countries, staff notice and company data',
  tags: ['content'],
});

/** The same page under the shorter path older clients use. */
export const announcementAlias = endpoint({ ...announcement, path: '/api/announcement' });

// ---------------------------------------------------------------- back office: news, companies, settings

/** Content role; every change is written to the staff audit log. The back office sends JSON bodies. */
const CONTENT = { auth: 'staff', roles: ['content'], tags: ['admin'], body: 'json' } as const;
/** Settings hold both content keys and the risk levels: either role may call (the service checks each key). */
const SETTINGS = { ...CONTENT, roles: ['content', 'risk'] } as const;

export const staffNewsList = endpoint({
  ...CONTENT,
  method: 'GET',
  path: '/api/admin/news/list',
  input: AdminNewsListInput,
  output: pageOf(AdminNewsItemSchema),
  summary: 'All news, published or not, newest first',
});

export const staffNewsInfo = endpoint({
  ...CONTENT,
  method: 'GET',
  path: '/api/admin/news/info',
  input: NewsInfoInput,
  output: AdminNewsSchema,
  summary: 'One news item for the editor',
});

export const saveNews = endpoint({
  ...CONTENT,
  method: 'POST',
  path: '/api/admin/news/save',
  input: NewsSaveInput,
  output: AdminNewsSchema,
  summary: 'Creates (no id) or updates a news item; content is sanitized before it is stored',
});

export const deleteNews = endpoint({
  ...CONTENT,
  method: 'POST',
  path: '/api/admin/news/delete',
  input: NewsInfoInput,
  output: z.null(),
  summary: 'Deletes a news item',
});

export const staffCompanyList = endpoint({
  ...CONTENT,
  method: 'GET',
  path: '/api/admin/company/list',
  input: CompanySearchInput,
  output: pageOf(AdminCompanySchema),
  summary: 'Companies with their status, loss_url and main flag',
});

export const saveCompany = endpoint({
  ...CONTENT,
  method: 'POST',
  path: '/api/admin/company/save',
  input: CompanySaveInput,
  output: AdminCompanySchema,
  summary: 'Creates (no id) or updates a company; is_main=1 makes it the main company',
});

export const staffSettings = endpoint({
  ...SETTINGS,
  method: 'GET',
  path: '/api/admin/settings',
  output: SettingsSchema,
  summary: 'The settings staff may edit',
});

export const saveSettings = endpoint({
  ...SETTINGS,
  method: 'POST',
  path: '/api/admin/settings/save',
  input: SettingsSaveInput,
  output: z.union([PendingChangeAnswer, SettingsSchema]),
  summary:
    'Saves any of service_link, service_link_type, verify_reg_type, announcement, is_show_mobile, allow_http_links (content role) and margin_call_level, stop_out_level (risk role); trade_fee_type is set on the fee screen (risk role). With four-eyes on (FOUR_EYES), a save holding margin_call_level or stop_out_level answers {pending_change_id} and changes nothing (its other keys included) until a second risk or admin member approves',
});
