import { Ajv } from 'ajv';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { Code } from '@tp/contract/codes';

/**
 * Output schemas of endpoints as JSON Schema (zod's output side: objects refuse undeclared keys), turned
 * into a compiled serializer for every answer and a strict checker for tests. Both are built once per
 * schema and shared by every app in the process.
 */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();
function outputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    jsonSchemas.set(schema, json);
  }
  return json;
}

const envelopeOf = (data: Record<string, unknown>) => ({
  type: 'object',
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
  required: ['code', 'msg', 'data'],
  additionalProperties: false,
});

type Serializer = (envelope: { code: number; msg: string; data: unknown }) => string;
const serializers = new WeakMap<z.ZodType, Serializer>();

/** The envelope `{code, msg, data}` serialized from the data's output schema (fast-json-stringify). */
export function outputSerializer(schema: z.ZodType): Serializer {
  let serializer = serializers.get(schema);
  if (!serializer) {
    const compiled = fastJson(envelopeOf(outputJsonSchema(schema)) as Parameters<typeof fastJson>[0]);
    serializer = (envelope) => compiled(envelope);
    serializers.set(schema, serializer);
  }
  return serializer;
}

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });
type Checker = (path: string, data: unknown) => void;
const checkers = new WeakMap<z.ZodType, Checker>();

/** A wrong answer: the route's path and where its data differs from the endpoint's output schema. */
export class OutputMismatch extends Error {
  readonly code = Code.FAIL;
}

/**
 * Throws when `data` has a field the output schema does not declare, lacks one it requires, or holds a
 * value of another type. JSON round trip first, as a client would see it (Decimal and Date become text).
 */
export function outputChecker(schema: z.ZodType): Checker {
  let checker = checkers.get(schema);
  if (!checker) {
    const validate = ajv.compile(outputJsonSchema(schema));
    checker = (path, data) => {
      const seen = data === undefined ? null : JSON.parse(JSON.stringify(data));
      if (validate(seen)) return;
      const issue = validate.errors?.[0];
      const where = issue ? `${issue.instancePath || '/'} ${issue.message ?? ''} ${JSON.stringify(issue.params)}` : '';
      throw new OutputMismatch(`${path}: answer does not match its output schema: ${where}`);
    };
    checkers.set(schema, checker);
  }
  return checker;
}
