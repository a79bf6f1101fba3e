import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMPANY_COOKIE_MAX_AGE_S } from '@tp/contract/constants';
import {
  AnnouncementSchema,
  COMPANY_COOKIE,
  CompanyIdInput,
  CompanySchema,
  CompanySearchInput,
  CompanyStatusSchema,
  NewsDetailSchema,
  NewsInfoInput,
  NewsItemSchema,
  NewsListInput,
  pageOf,
  SupportEmailSchema,
} from '@tp/contract/schemas/content';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import { publicCompany } from './service.ts';

/** The company id remembered by the app (cookie set by the web app, or by getCompany?id=). */
function cookieCompanyId(req: FastifyRequest): number | undefined {
  const match = new RegExp(`(?:^|;\\s*)${COMPANY_COOKIE}=(\\d{1,9})(?:;|$)`).exec(req.headers.cookie ?? '');
  return match ? Number(match[1]) : undefined;
}

function rememberCompany(req: FastifyRequest, reply: FastifyReply, id: number) {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${COMPANY_COOKIE}=${id}; Max-Age=${COMPANY_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax${secure}`);
}

export function registerContentRoutes(app: FastifyInstance, ctx: AppContext) {
  const content = () => ctx.services.content;
  const chosenCompany = (input: { id?: number }, req: FastifyRequest) => input.id ?? cookieCompanyId(req);

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/news/list',
    input: NewsListInput,
    summary: 'Published news of a category, newest first (category_id 1 by default)',
    tags: ['content'],
    response: pageOf(NewsItemSchema),
    handler: ({ input }) => content().newsList(input),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/news/info',
    input: NewsInfoInput,
    summary: 'One published news item; content is sanitized HTML',
    tags: ['content'],
    response: NewsDetailSchema,
    handler: ({ input }) => content().newsInfo(input.id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/company/getCompany',
    input: CompanyIdInput,
    summary:
      'Company data: by id, else the one remembered in the company_id cookie, else the main company. With a known id, sets that cookie for 3 years',
    tags: ['content'],
    response: CompanySchema,
    async handler({ input, req, reply }) {
      const company = await content().company(chosenCompany(input, req));
      if (input.id !== undefined && company.id === input.id) rememberCompany(req, reply, company.id);
      return publicCompany(company);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/company/search',
    input: CompanySearchInput,
    summary: 'Companies whose name contains `name` (case-insensitive), main company first',
    tags: ['content'],
    response: pageOf(CompanySchema),
    handler: ({ input }) => content().searchCompanies(input),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/company/getCompanyStatus',
    input: CompanyIdInput,
    summary: 'Main-mode check: a nonzero status means the app must go to loss_url',
    tags: ['content'],
    response: CompanyStatusSchema,
    handler: ({ input, req }) => content().companyStatus(chosenCompany(input, req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/company/getSupportEmail',
    input: CompanyIdInput,
    summary: "The company's support email",
    tags: ['content'],
    response: SupportEmailSchema,
    handler: ({ input, req }) => content().supportEmail(chosenCompany(input, req)),
  });

  for (const url of ['/api/default/announcement', '/api/announcement']) {
    defineRoute(app, ctx, {
      method: 'GET',
      url,
      input: CompanyIdInput,
      summary: 'Announcement page: the translated notice of excluded countries, staff notice and company data',
      tags: ['content'],
      response: AnnouncementSchema,
      handler: ({ input, req, lang }) => content().announcement(lang, chosenCompany(input, req)),
    });
  }
}
