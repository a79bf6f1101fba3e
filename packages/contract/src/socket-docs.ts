/**
 * What is derived from the socket's declarations (pushes.ts): the zod-free shapes the web app checks
 * frames against (push-shapes.ts) and the README's table of socket messages. `npm run docs:socket`
 * writes both; pushes.test.ts fails when either is out of date.
 */
import { z } from 'zod';
import { clientMessages, type ServerMessageDeclaration, type SocketMessageDeclaration, serverMessages } from './pushes.ts';
import type { WireShape } from './wire-shape.ts';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  items?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, string | number>;
  options?: z.ZodType[];
  innerType?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The wire shape of a zod schema (the kinds the socket's messages use). */
export function wireShapeOf(schema: z.ZodType): WireShape {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'unknown':
      return def.type;
    case 'literal':
      return def.values!.length === 1 ? { const: def.values![0] as string | number } : { oneOf: def.values as (string | number)[] };
    case 'enum':
      return { oneOf: Object.values(def.entries!) };
    case 'union': {
      const options = def.options!.map(wireShapeOf);
      // A union of constants (1 | 2) reads better as one list.
      if (options.every((o) => typeof o === 'object' && 'const' in o))
        return { oneOf: options.map((o) => (o as { const: string | number }).const) };
      return { anyOf: options };
    }
    case 'nullable':
      return { anyOf: [wireShapeOf(def.innerType!), 'null'] };
    case 'array':
      return { array: wireShapeOf(def.element!) };
    case 'tuple':
      return { tuple: def.items!.map(wireShapeOf) };
    case 'object': {
      const object: Record<string, WireShape> = {};
      const optional: string[] = [];
      for (const [key, field] of Object.entries(def.shape!)) {
        if (defOf(field).type === 'optional') {
          optional.push(key);
          object[key] = wireShapeOf(defOf(field).innerType!);
        } else object[key] = wireShapeOf(field);
      }
      return optional.length ? { object, optional } : { object };
    }
    default:
      throw new Error(`a socket message uses a schema kind the wire shapes do not know: ${def.type}`);
  }
}

/** The generated module push-shapes.ts. */
export function renderShapesModule(): string {
  const rows = Object.entries(serverMessages as Record<string, ServerMessageDeclaration>).map(([name, d]) => ({
    name,
    type: d.type,
    frame: d.frame,
    topic: d.topic,
    audience: d.audience,
    shape: wireShapeOf(d.schema),
  }));
  return [
    '// Generated from pushes.ts by `npm run docs:socket` (pushes.test.ts fails when it is out of date): do not edit.',
    "import type { ServerMessageName, SocketAudience } from './pushes.ts';",
    "import type { WireShape } from './wire-shape.ts';",
    '',
    'export interface ServerMessageShape {',
    '  readonly name: ServerMessageName;',
    '  readonly type: string;',
    "  readonly frame: 'json' | 'text';",
    '  readonly topic: string | null;',
    '  readonly audience: SocketAudience;',
    '  readonly shape: WireShape;',
    '}',
    '',
    `export const SERVER_MESSAGE_SHAPES: readonly ServerMessageShape[] = ${JSON.stringify(rows, null, 2)};`,
    '',
  ].join('\n');
}

/** The fields of a message for the README: top-level keys, with the keys of nested objects. */
function fieldsOf(shape: WireShape, depth = 0): string {
  if (typeof shape !== 'object') return '';
  if ('array' in shape) return `[${fieldsOf(shape.array, depth) || '…'}]`;
  if ('anyOf' in shape) return shape.anyOf.map((s) => fieldsOf(s, depth)).find(Boolean) ?? '';
  if (!('object' in shape)) return '';
  const keys = Object.entries(shape.object)
    .filter(([key]) => depth > 0 || key !== 'type')
    .map(([key, field]) => {
      const inner =
        depth < 1 ? fieldsOf(field, depth + 1) : typeof field === 'object' && ('object' in field || 'array' in field) ? '{…}' : '';
      return inner ? `${key} ${inner}` : key;
    });
  return depth === 0 ? keys.join(', ') : `{${keys.join(', ')}}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function row(name: string, d: SocketMessageDeclaration, who: string): string {
  const wire = d.frame === 'text' ? `text \`${d.type}\`` : `\`${d.type}\``;
  const fields = d.frame === 'text' ? '' : fieldsOf(wireShapeOf(d.schema));
  return `| \`${name}\` | ${wire} | ${who} | ${cell(fields)} | ${cell(d.summary)} |`;
}

export const README_BEGIN = '<!-- socket-messages: generated from packages/contract/src/pushes.ts by `npm run docs:socket` -->';
export const README_END = '<!-- /socket-messages -->';

/** The README's table of socket messages (between README_BEGIN and README_END). */
export function renderReadmeTable(): string {
  const lines = [
    README_BEGIN,
    '| Message | Frame `type` | Topic / to whom | Fields | What |',
    '|---|---|---|---|---|',
    ...Object.entries(serverMessages as Record<string, ServerMessageDeclaration>).map(([name, d]) =>
      row(
        name,
        d,
        `server → client: ${d.topic ? `topic \`${d.topic}\`` : d.audience === 'reply' ? 'reply' : 'the connection'}${d.audience === 'announcement' ? ', no `sub` needed' : ''}`,
      ),
    ),
    ...Object.entries(clientMessages as Record<string, SocketMessageDeclaration>).map(([name, d]) => row(name, d, 'client → server')),
    README_END,
  ];
  return lines.join('\n');
}

/** The README with its table of socket messages replaced by the current one. */
export function withReadmeTable(readme: string): string {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error('the README has no table of socket messages (markers missing)');
  return readme.slice(0, begin) + renderReadmeTable() + readme.slice(end + README_END.length);
}

/** A schema with every object strict, all the way down: no field may be missing or extra (the wire tests). */
export function strictSchema(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject)
    return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, strictSchema(v as z.ZodType)])));
  if (schema instanceof z.ZodArray) return z.array(strictSchema(schema.element as z.ZodType));
  if (schema instanceof z.ZodTuple) return z.tuple((schema.def.items as z.ZodType[]).map(strictSchema) as [z.ZodType, ...z.ZodType[]]);
  if (schema instanceof z.ZodNullable) return strictSchema(schema.unwrap() as z.ZodType).nullable();
  return schema;
}
