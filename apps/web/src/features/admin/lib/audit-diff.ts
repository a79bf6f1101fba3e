/** One field of an audit entry, before and after the staff change. */
export interface DiffRow {
  /** Nested objects as a.b.c; array items of objects as a[0].b; '' for a value that is not an object. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** The value as shown (strings as they are, anything else as JSON); absent when added. */
  before?: string;
  /** Absent when removed. */
  after?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as staff read it: text as it is, numbers, booleans, null and lists of plain values as JSON. */
export function showValue(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/**
 * The leaves of a value by path, each as its JSON: objects open into a.b.c, lists holding objects into
 * a[0].b; a list of plain values (leverages, holidays) stays one value, and so does an empty object or list.
 */
export function flatten(value: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, join(prefix, k), into);
  } else if (Array.isArray(value) && value.some((v) => isObject(v) || Array.isArray(v))) {
    value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, into));
  } else if (value !== undefined) {
    into.set(prefix, JSON.stringify(value));
  }
  return into;
}

/**
 * What a staff change changed: each field that was added, removed or given another value, in the order
 * the fields come (before's first, then after's new ones). Unchanged fields are left out. A missing side
 * (null, or an empty object: created or deleted) makes every field of the other side added or removed.
 */
export function auditDiff(before: unknown, after: unknown): DiffRow[] {
  const none = (v: unknown) => v === null || v === undefined || (isObject(v) && Object.keys(v).length === 0);
  const old = none(before) ? new Map<string, string>() : flatten(before);
  const now = none(after) ? new Map<string, string>() : flatten(after);
  const shown = (json: string) => showValue(JSON.parse(json));
  const rows: DiffRow[] = [];
  for (const [path, value] of old) {
    const next = now.get(path);
    if (next === undefined) rows.push({ path, kind: 'removed', before: shown(value) });
    else if (next !== value) {
      // 1 and "1" read the same: then both are shown as JSON, so the change is visible.
      const same = shown(value) === shown(next);
      rows.push({ path, kind: 'changed', before: same ? value : shown(value), after: same ? next : shown(next) });
    }
  }
  for (const [path, value] of now) if (!old.has(path)) rows.push({ path, kind: 'added', after: shown(value) });
  return rows;
}
