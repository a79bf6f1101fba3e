import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules `npm run lint` applies to a file at `path` (relative to the repository) with this text. */
async function ruleIds(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `${root}${path}` });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

// The first lint loads the config and walks the import graph for no-cycle: seconds, not milliseconds.
describe('server module boundaries (npm run lint)', { timeout: 60_000 }, () => {
  it("refuses a module's import of another module's tables or inner files", async () => {
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { orders } from '../trading/db/schema.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(
      await ruleIds('apps/server/src/modules/admin/probe.ts', "export { cashEntries } from '../trading/db/repository.ts';\n"),
    ).toContain('import-x/no-restricted-paths');
  });

  it('refuses the all-tables schema in module code', async () => {
    expect(await ruleIds('apps/server/src/modules/trading/probe.ts', "export { orders } from '../../platform/db/schema.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it("allows another module's index.ts, the module's own files and the platform's tables", async () => {
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { listOrders } from '../trading/index.ts';\n")).toEqual([]);
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { staff } from './schema.ts';\n")).toEqual([]);
    expect(
      await ruleIds('apps/server/src/modules/admin/probe.ts', "export { settings } from '../../platform/db/platform-schema.ts';\n"),
    ).toEqual([]);
  });

  it('lets tests reach into any module', async () => {
    expect(await ruleIds('apps/server/src/modules/admin/probe.test.ts', "export { orders } from '../trading/db/schema.ts';\n")).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    // gateway.ts imports protocol.ts at run time; protocol.ts importing the gateway back closes a cycle.
    expect(await ruleIds('apps/server/src/realtime/protocol.ts', "export { WsGateway } from './gateway.ts';\n")).toContain(
      'import-x/no-cycle',
    );
  });
});

/** Every import of the code (tests aside), `import type` included, as file -> files it imports. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => path.join(root, dir, f)),
  );
  const known = new Set(files);
  const contract = path.join(root, 'packages/contract/src');
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const specifiers = [...fs.readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^'";]*?from\s+'([^']+)'/g)].map((m) => m[1]!);
    const targets = specifiers.map((s) =>
      s.startsWith('.')
        ? path.resolve(path.dirname(file), s)
        : s === '@tp/contract'
          ? path.join(contract, 'index.ts')
          : s.startsWith('@tp/contract/')
            ? path.join(contract, `${s.slice(13)}.ts`)
            : '',
    );
    graph.set(
      file,
      targets.filter((target) => known.has(target)),
    );
  }
  return graph;
}

/** The first cycle found, as a list of repository paths, or null. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(root, f));
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

// import-x/no-cycle does not follow `import type`; a cycle of types still ties two files together.
describe('no import cycle in the server or the contract, type imports included', () => {
  it('finds none', () => {
    expect(findCycle(importGraph(['apps/server/src', 'packages/contract/src']))).toBeNull();
  });

  it('would find one', () => {
    const a = path.join(root, 'a.ts');
    const b = path.join(root, 'b.ts');
    expect(
      findCycle(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });
});
