import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code } from '@tp/contract/codes';
import { MAX_UPLOAD_BYTES } from '@tp/contract/constants';
import * as api from '@tp/contract/endpoints/identity';
import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import { t } from '../../http/i18n.ts';
import { langOf, route, tokenOf } from '../../http/route.ts';

type ReadOutcome = { ok: true; data: Buffer } | { ok: false; reason: 'upload_one_image' | 'upload_too_large' };

/** Reads the one file of a multipart request; refuses none, several, or one over the size limit. */
async function readSingleFile(req: FastifyRequest): Promise<ReadOutcome> {
  if (!req.isMultipart()) return { ok: false, reason: 'upload_one_image' };
  let file: Buffer | null = null;
  let files = 0;
  try {
    for await (const part of req.parts({ limits: { files: 2, fileSize: MAX_UPLOAD_BYTES } })) {
      if (part.type !== 'file') continue;
      files++;
      if (files > 1) {
        part.file.resume();
        continue;
      }
      file = await part.toBuffer();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') return { ok: false, reason: 'upload_too_large' };
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return { ok: false, reason: 'upload_one_image' };
    throw err;
  }
  if (files !== 1 || !file) return { ok: false, reason: 'upload_one_image' };
  return { ok: true, data: file };
}

export function registerUploadRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, api.imageUpload, async ({ req, user }) => {
    const file = await readSingleFile(req);
    if (!file.ok) throw invalid(file.reason);
    const stored = await ctx.services.uploads.storeImage(user.id, file.data);
    if (!stored.ok) throw invalid(stored.reason);
    return { url: stored.url };
  });

  // Files are not API envelopes: the bytes, or HTTP 404 alike for unknown and not-allowed keys.
  app.get<{ Params: { key: string }; Querystring: { exp?: string; sig?: string } }>(
    api.uploadedFile.path,
    { schema: { hide: true } },
    async (req, reply) => {
      const token = tokenOf(req);
      const viewer = {
        userId: token ? (await ctx.services.sessions.resolveUser(token))?.id : undefined,
        staff: token ? (await ctx.services.sessions.resolveStaff(token)) !== null : false,
        exp: req.query.exp,
        sig: req.query.sig,
      };
      const file = await ctx.services.uploads.read(req.params.key, viewer);
      if (!file) return reply.code(404).send({ code: Code.NOT_FOUND, msg: t(langOf(req), 'not_found'), data: null });
      return reply
        .header('content-type', file.mime)
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.data);
    },
  );
}
