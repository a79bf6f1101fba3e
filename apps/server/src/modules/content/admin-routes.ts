import type { FastifyInstance } from 'fastify';
import {
  AdminCompanySchema,
  AdminNewsListInput,
  AdminNewsSchema,
  CompanySaveInput,
  CompanySearchInput,
  NewsInfoInput,
  NewsSaveInput,
  pageOf,
  SettingsSaveInput,
  SettingsSchema,
} from '@tp/contract/schemas/content';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';

/** Back office calls for news, companies and settings; every change is written to the staff audit log. */
export function registerContentAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const content = () => ctx.services.content;
  const common = { auth: 'staff' as const, roles: ['content'], tags: ['admin'] };

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/news/list',
    input: AdminNewsListInput,
    summary: 'All news, published or not, newest first',
    handler: ({ input }) => content().adminNewsList(input),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/news/info',
    input: NewsInfoInput,
    summary: 'One news item for the editor',
    response: AdminNewsSchema,
    handler: ({ input }) => content().adminNewsInfo(input.id),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/admin/news/save',
    input: NewsSaveInput,
    summary: 'Creates (no id) or updates a news item; content is sanitized before it is stored',
    response: AdminNewsSchema,
    handler: ({ input, staff }) => content().saveNews(staff, input),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/admin/news/delete',
    input: NewsInfoInput,
    summary: 'Deletes a news item',
    async handler({ input, staff }) {
      await content().deleteNews(staff, input.id);
      return null;
    },
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'GET',
    url: '/api/admin/company/list',
    input: CompanySearchInput,
    summary: 'Companies with their status, loss_url and main flag',
    response: pageOf(AdminCompanySchema),
    handler: ({ input }) => content().searchCompanies(input, true),
  });

  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: '/api/admin/company/save',
    input: CompanySaveInput,
    summary: 'Creates (no id) or updates a company; is_main=1 makes it the main company',
    response: AdminCompanySchema,
    handler: ({ input, staff }) => content().saveCompany(staff, input),
  });

  defineRoute(app, ctx, {
    ...common,
    roles: ['content', 'risk'],
    method: 'GET',
    url: '/api/admin/settings',
    summary: 'The settings staff may edit',
    response: SettingsSchema,
    handler: () => content().editableSettings(),
  });

  defineRoute(app, ctx, {
    ...common,
    roles: ['content', 'risk'],
    method: 'POST',
    url: '/api/admin/settings/save',
    input: SettingsSaveInput,
    summary:
      'Saves any of service_link, service_link_type, verify_reg_type, announcement, is_show_mobile, allow_http_links (content role) and margin_call_level, stop_out_level (risk role); trade_fee_type is set on the fee screen (risk role)',
    response: SettingsSchema,
    handler: ({ input, staff }) => content().saveSettings(staff, input),
  });
}
