import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AreaCodeSchema, BasicInfoSchema, OutboxRowSchema, PageInput, SettingInput } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';
import { listOutbox } from './code-repository.ts';
import { getSetting, getSettings, listAreas } from './settings-repository.ts';

/** Settings anyone may read through /api/default/setting; everything else stays server-side. */
export const PUBLIC_SETTINGS = ['is_show_mobile', 'verify_reg_type', 'service_link', 'service_link_type', 'trade_fee_type', 'announcement'];

const int = (v: string | undefined, fallback: number) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : fallback);

export function registerSettingRoutes(app: FastifyInstance, ctx: AppContext) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/default/area_list',
    summary: 'Countries and their dialling codes for mobile accounts',
    tags: ['reference'],
    response: z.array(AreaCodeSchema),
    async handler() {
      const rows = await listAreas(ctx.db);
      return rows.map((r) => ({ id: r.id, code: r.code, global_code: r.globalCode, name: r.name }));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/default/setting',
    input: SettingInput,
    summary: `The value of one public setting (${PUBLIC_SETTINGS.join(', ')})`,
    tags: ['reference'],
    response: z.string(),
    async handler({ input }) {
      if (!PUBLIC_SETTINGS.includes(input.key)) throw notFound();
      return (await getSetting(ctx.db, input.key)) ?? '';
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/basicSet/getBasicInfo',
    summary: 'Base data: support link and its type, registration verification type, trade fee type',
    tags: ['reference'],
    response: BasicInfoSchema,
    async handler() {
      const s = await getSettings(ctx.db, ['service_link', 'service_link_type', 'verify_reg_type', 'trade_fee_type']);
      return {
        service_link: s.get('service_link') ?? '',
        service_link_type: int(s.get('service_link_type'), 1),
        verify_reg_type: int(s.get('verify_reg_type'), 1),
        trade_fee_type: int(s.get('trade_fee_type'), 1),
      };
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/outbox',
    auth: 'staff',
    roles: ['support'],
    input: PageInput,
    summary: 'Emails and texts kept because no mail or SMS provider is configured (newest first)',
    tags: ['admin'],
    response: z.object({ data: z.array(OutboxRowSchema), total: z.number() }),
    async handler({ input }) {
      const { rows, total } = await listOutbox(ctx.db, input.limit, (input.page - 1) * input.limit);
      return {
        data: rows.map((r) => ({
          id: r.id,
          channel: r.channel,
          destination: r.destination,
          subject: r.subject,
          body: r.body,
          created_at: r.createdAt.toISOString(),
        })),
        total,
      };
    },
  });
}
