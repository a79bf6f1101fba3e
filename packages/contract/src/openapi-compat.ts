/**
 * What an existing client relies on, compared between two OpenAPI documents (the committed snapshot and
 * the one the endpoint table builds now): every path and method, every field name of a request or an
 * answer, and which request fields are optional. Additions pass; removals, renames and newly required
 * inputs are breaking.
 */
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function resolve(doc: Json, schema: unknown): Json {
  let s = (schema ?? {}) as Json;
  for (let depth = 0; typeof s.$ref === 'string' && depth < 20; depth++) {
    const parts = (s.$ref as string).replace(/^#\//, '').split('/');
    s = (parts.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc) ?? {}) as Json;
  }
  return s;
}

/**
 * Field paths of a schema (`data.list[].price`), each with whether a client must send it (it and every
 * field around it required); through $ref, items, maps and anyOf/oneOf/allOf.
 */
function fieldsOf(doc: Json, schema: unknown, prefix: string, out: Map<string, boolean>, mustSend = true, seen = new Set<unknown>()): void {
  const s = resolve(doc, schema);
  if (seen.has(s)) return;
  seen.add(s);
  const required = new Set((s.required as string[] | undefined) ?? []);
  for (const [name, inner] of Object.entries((s.properties as Json | undefined) ?? {})) {
    const at = prefix ? `${prefix}.${name}` : name;
    const must = mustSend && required.has(name);
    out.set(at, (out.get(at) ?? false) || must);
    fieldsOf(doc, inner, at, out, must, seen);
  }
  if (s.items) fieldsOf(doc, s.items, `${prefix}[]`, out, false, seen);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    fieldsOf(doc, s.additionalProperties, `${prefix}{}`, out, false, seen);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const inner of (s[key] as unknown[] | undefined) ?? []) fieldsOf(doc, inner, prefix, out, mustSend, seen);
  }
  seen.delete(s);
}

interface Shape {
  request: Map<string, boolean>;
  response: Map<string, boolean>;
}

function shapesOf(doc: Json): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  for (const [path, item] of Object.entries((doc.paths as Json | undefined) ?? {})) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      const request = new Map<string, boolean>();
      for (const p of (op.parameters as Json[] | undefined) ?? []) {
        const param = resolve(doc, p);
        request.set(`${param.in as string}:${param.name as string}`, param.required === true);
      }
      const content = (resolve(doc, op.requestBody).content as Record<string, Json> | undefined) ?? {};
      for (const [type, media] of Object.entries(content)) {
        const fields = new Map<string, boolean>();
        fieldsOf(doc, media.schema, '', fields);
        for (const [name, req] of fields) request.set(`${type}:${name}`, req);
      }
      const response = new Map<string, boolean>();
      for (const [status, answer] of Object.entries((op.responses as Json | undefined) ?? {})) {
        for (const [type, media] of Object.entries((resolve(doc, answer).content as Record<string, Json> | undefined) ?? {})) {
          const fields = new Map<string, boolean>();
          fieldsOf(doc, media.schema, '', fields);
          for (const [name, req] of fields) response.set(`${status} ${type}:${name}`, req);
        }
      }
      shapes.set(`${method.toUpperCase()} ${path}`, { request, response });
    }
  }
  return shapes;
}

/** The changes from `before` to `after` that break a client written against `before`; empty when only additions. */
export function breakingChanges(before: object, after: object): string[] {
  const was = shapesOf(before as Json);
  const now = shapesOf(after as Json);
  const problems: string[] = [];
  for (const [call, old] of was) {
    const next = now.get(call);
    if (!next) {
      problems.push(`${call}: the call was removed`);
      continue;
    }
    for (const field of old.request.keys()) {
      if (!next.request.has(field)) problems.push(`${call}: request field ${field} was removed or renamed`);
    }
    for (const [field, required] of next.request) {
      if (required && old.request.get(field) !== true) problems.push(`${call}: request field ${field} is newly required`);
    }
    for (const field of old.response.keys()) {
      if (!next.response.has(field)) problems.push(`${call}: answer field ${field} was removed or renamed`);
    }
  }
  return problems;
}
