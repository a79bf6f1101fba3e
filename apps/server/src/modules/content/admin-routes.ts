import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/content';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

/** Back office calls for news, companies and settings; every change is written to the staff audit log. */
export function registerContentAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  const content = () => ctx.services.content;

  route(app, ctx, api.staffNewsList, ({ input }) => content().adminNewsList(input));
  route(app, ctx, api.staffNewsInfo, ({ input }) => content().adminNewsInfo(input.id));
  route(app, ctx, api.saveNews, ({ input, staff }) => content().saveNews(staff, input));
  route(app, ctx, api.deleteNews, async ({ input, staff }) => {
    await content().deleteNews(staff, input.id);
    return null;
  });
  route(app, ctx, api.staffCompanyList, ({ input }) => content().staffCompanyList(input));
  route(app, ctx, api.saveCompany, ({ input, staff }) => content().saveCompany(staff, input));
  route(app, ctx, api.staffSettings, () => content().editableSettings());
  route(app, ctx, api.saveSettings, ({ input, staff }) => content().saveSettings(staff, input));
}
