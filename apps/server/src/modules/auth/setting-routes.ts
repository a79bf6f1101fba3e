import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/auth';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { listOutbox } from './code-repository.ts';
import { getSetting, getSettings, listAreas } from './settings-repository.ts';

const int = (v: string | undefined, fallback: number) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : fallback);

export function registerSettingRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.areaList, async () => {
    const rows = await listAreas(ctx.db);
    return rows.map((r) => ({ id: r.id, code: r.code, global_code: r.globalCode, name: r.name }));
  });

  route(app, ctx, api.setting, async ({ input }) => {
    if (!api.PUBLIC_SETTINGS.includes(input.key)) throw notFound();
    return (await getSetting(ctx.db, input.key)) ?? '';
  });

  route(app, ctx, api.basicInfo, async () => {
    const s = await getSettings(ctx.db, [
      'service_link',
      'service_link_type',
      'verify_reg_type',
      'trade_fee_type',
      'withdraw_requires_identity',
    ]);
    return {
      service_link: s.get('service_link') ?? '',
      service_link_type: int(s.get('service_link_type'), 1),
      verify_reg_type: int(s.get('verify_reg_type'), 1),
      trade_fee_type: int(s.get('trade_fee_type'), 1),
      // Read as the withdrawal check reads it: '1' (the default) requires a verified identity.
      withdraw_requires_identity: (s.get('withdraw_requires_identity') ?? '1') === '1' ? (1 as const) : (0 as const),
    };
  });

  route(app, ctx, api.adminOutbox, async ({ input, staff, req }) => {
    const { rows, total } = await listOutbox(ctx.db, input.limit, (input.page - 1) * input.limit);
    // The outbox holds live codes: who read which messages is on record.
    await ctx.services.staff.audit(ctx.db, staff, 'staff.outbox_read', { type: 'outbox', id: input.page }, null, {
      ip: req.ip,
      ids: rows.map((r) => r.id),
    });
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
  });
}
