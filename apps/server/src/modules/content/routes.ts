import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMPANY_COOKIE_MAX_AGE_S } from '@tp/contract/constants';
import * as api from '@tp/contract/endpoints/content';
import { COMPANY_COOKIE } from '@tp/contract/schemas/content';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
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

  route(app, ctx, api.newsList, ({ input, lang }) => content().newsList(input, lang));
  route(app, ctx, api.newsInfo, ({ input, lang }) => content().newsInfo(input.id, lang));

  route(app, ctx, api.getCompany, async ({ input, req, reply }) => {
    const company = await content().company(chosenCompany(input, req));
    if (input.id !== undefined && company.id === input.id) rememberCompany(req, reply, company.id);
    return publicCompany(company);
  });

  route(app, ctx, api.searchCompanies, ({ input }) => content().searchCompanies(input));
  route(app, ctx, api.companyStatus, ({ input, req }) => content().companyStatus(chosenCompany(input, req)));
  route(app, ctx, api.supportEmail, ({ input, req }) => content().supportEmail(chosenCompany(input, req)));

  for (const page of [api.announcement, api.announcementAlias]) {
    route(app, ctx, page, ({ input, req, lang }) => content().announcement(lang, chosenCompany(input, req)));
  }
}
