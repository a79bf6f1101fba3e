/**
 * The shape of a socket message without zod: what the web app checks each frame against. It is
 * generated from the zod declarations (push-shapes.ts, from pushes.ts), so the browser gets the
 * contract's checks without the weight of zod in its start-up chunk.
 */
export type WireShape =
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'unknown'
  | { readonly const: string | number | boolean }
  | { readonly oneOf: readonly (string | number)[] }
  | { readonly array: WireShape }
  | { readonly tuple: readonly WireShape[] }
  | { readonly object: { readonly [key: string]: WireShape }; readonly optional?: readonly string[] }
  | { readonly anyOf: readonly WireShape[] };

/**
 * Whether a value has the shape. Objects may carry more keys than declared (a newer server may add
 * one; existing clients ignore it); every declared key that is not optional must be present.
 */
export function matchesShape(value: unknown, shape: WireShape): boolean {
  if (typeof shape === 'string') {
    if (shape === 'unknown') return true;
    if (shape === 'null') return value === null;
    if (shape === 'number') return typeof value === 'number' && Number.isFinite(value);
    return typeof value === shape;
  }
  if ('const' in shape) return value === shape.const;
  if ('oneOf' in shape) return (shape.oneOf as readonly unknown[]).includes(value);
  if ('anyOf' in shape) return shape.anyOf.some((s) => matchesShape(value, s));
  if ('array' in shape) {
    if (!Array.isArray(value)) return false;
    for (const item of value) if (!matchesShape(item, shape.array)) return false;
    return true;
  }
  if ('tuple' in shape) {
    if (!Array.isArray(value) || value.length !== shape.tuple.length) return false;
    return shape.tuple.every((s, i) => matchesShape(value[i], s));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key in shape.object) {
    const field = record[key];
    if (field === undefined) {
      if (shape.optional?.includes(key)) continue;
      return false;
    }
    if (!matchesShape(field, shape.object[key]!)) return false;
  }
  return true;
}
