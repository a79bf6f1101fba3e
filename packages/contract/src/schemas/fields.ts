import { z } from 'zod';
import { linkScheme } from '../links.ts';
import { hasControlChars } from '../text.ts';

/**
 * Field builders every input schema shares. Form and query values arrive as text, where an empty
 * string means "not given"; each builder bounds its value to what the database column holds, so
 * no input reaches the database in a shape it refuses.
 */

export const blank = (raw: unknown) => raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
export const orUndefined = (raw: unknown) => (blank(raw) ? undefined : raw);

/** An `integer` (serial) column's largest value. */
export const MAX_ID = 2_147_483_647;
/** A `bigserial` column read as a JavaScript number (orders, sessions). */
export const MAX_BIG_ID = Number.MAX_SAFE_INTEGER;

export { hasControlChars };
/** Keys that could reach an object's prototype when a handler copies its input. */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Whole numbers as typed: decimal digits with an optional '-', nothing else (no hex, exponent, '+', spaces or fraction). */
const WHOLE = /^-?\d{1,16}$/;
/** Blank is absent; a string of decimal digits is its number; anything else stays as it is, for the number schema to refuse. */
export const asWholeNumber = (raw: unknown) => {
  const value = orUndefined(raw);
  return typeof value === 'string' && WHOLE.test(value) ? Number(value) : value;
};

/** A number schema fed by query or form text: only decimal whole numbers get through (no `0x2`, `1e3`, `+1`, ` 1`). */
export const whole = <T extends z.ZodType>(schema: T) => z.preprocess(asWholeNumber, schema);

const wholeIn = (min: number, max: number, key: string) =>
  z
    .number({ error: `msg:${key}` })
    .int(`msg:${key}`)
    .min(min, `msg:${key}`)
    .max(max, `msg:${key}`);
const oneOf = <T extends number>(values: readonly T[], key: string) =>
  z.number({ error: `msg:${key}` }).refine((v): v is T => (values as readonly number[]).includes(v), `msg:${key}`);

/** A whole number between `min` and `max`, `fallback` when left out; `key` is the message for anything else. */
export const intField = (min: number, max: number, key = 'invalid_number', fallback?: number) =>
  whole(fallback === undefined ? wholeIn(min, max, key) : wholeIn(min, max, key).default(fallback));

/** A whole number that may be left out. */
export const optionalIntField = (min: number, max: number, key = 'invalid_number') => whole(wholeIn(min, max, key).optional());

/** One of the listed decimal values (a choice field: type, status, ...), `fallback` when left out. */
export const choiceField = <T extends number>(values: readonly T[], key = 'invalid_number', fallback?: T) =>
  whole(fallback === undefined ? oneOf(values, key) : oneOf(values, key).default(fallback));

/** A choice that may be left out (a list filter). */
export const optionalChoiceField = <T extends number>(values: readonly T[], key = 'invalid_number') => whole(oneOf(values, key).optional());

/** A positive database id; `missing` is the message key when it is absent or not an id. */
export const idField = (missing = 'input_full', max = MAX_ID) => intField(1, max, missing);

/** An id that may be left out. */
export const optionalIdField = (invalidKey = 'invalid_number', max = MAX_ID) => optionalIntField(1, max, invalidKey);

/** Text without NUL or other control characters (PostgreSQL refuses NUL in text). */
export const text = (error?: string) =>
  z.string(error ? { error } : undefined).refine((s) => !hasControlChars(s), 'msg:text_invalid_characters');

/** Required trimmed text; absent or blank answers the fill-in-all-fields message. */
export const requiredText = (max: number) =>
  z
    .string({ error: 'msg:input_full' })
    .trim()
    .min(1, 'msg:input_full')
    .max(max, 'msg:text_too_long')
    .refine((s) => !hasControlChars(s), 'msg:text_invalid_characters');

/** Trimmed text of at most `max` characters, possibly empty. */
export const boundedText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'msg:text_too_long')
    .refine((s) => !hasControlChars(s), 'msg:text_invalid_characters');

/** page (from 1) and limit (1 to 100, 10 when left out). */
export const PageInput = z.object({
  page: whole(z.number().int().min(1).max(100_000).default(1)),
  limit: whole(z.number().int().min(1).max(100).default(10)),
});

/** A page of records: { data, total }. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });

/** A stored link (see links.ts): https, http, mailto or a relative path; blank means none. */
export const linkField = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'msg:text_too_long')
    .refine((v) => v === '' || linkScheme(v) !== null, 'msg:url_invalid');
