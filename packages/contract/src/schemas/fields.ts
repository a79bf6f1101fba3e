import { z } from 'zod';

/**
 * Field pieces shared by the staff (admin) and funding schemas: form and query values arrive as
 * text, where an empty string means "not given".
 */

export const blank = (raw: unknown) => raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
export const orUndefined = (raw: unknown) => (blank(raw) ? undefined : raw);

const MAX_ID = 2_147_483_647;

/** A positive database id; `missing` is the message key when it is absent or not an id. */
export const idField = (missing = 'input_full') =>
  z.preprocess(
    orUndefined,
    z.coerce
      .number({ error: `msg:${missing}` })
      .int(`msg:${missing}`)
      .positive(`msg:${missing}`)
      .max(MAX_ID, `msg:${missing}`),
  );

/** An id that may be left out. */
export const optionalIdField = () => z.preprocess(orUndefined, z.coerce.number().int().positive().max(MAX_ID).optional());

/** Required trimmed text; absent or blank answers the fill-in-all-fields message. */
export const requiredText = (max: number) =>
  z.string({ error: 'msg:input_full' }).trim().min(1, 'msg:input_full').max(max, 'msg:text_too_long');

/** Trimmed text of at most `max` characters, possibly empty. */
export const boundedText = (max: number) => z.string().trim().max(max, 'msg:text_too_long');

/** page (from 1) and limit (1 to 100, 10 when left out). */
export const PageInput = z.object({
  page: z.preprocess(orUndefined, z.coerce.number().int().min(1).max(100_000).default(1)),
  limit: z.preprocess(orUndefined, z.coerce.number().int().min(1).max(100).default(10)),
});

/** A page of records: { data, total }. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });
