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
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { orders } from '../trading/schema.ts';\n")).toContain('import-x/no-restricted-paths');
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { cashEntries } from '../trading/repository.ts';\n")).toContain('import-x/no-restricted-paths');
  });

  it('refuses the all-tables schema in module code', async () => {
    expect(await ruleIds('apps/server/src/modules/trading/probe.ts', "export { orders } from '../../platform/db/schema.ts';\n")).toContain('import-x/no-restricted-paths');
  });

  it("allows another module's index.ts, the module's own files and the platform's tables", async () => {
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { listOrders } from '../trading/index.ts';\n")).toEqual([]);
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { staff } from './schema.ts';\n")).toEqual([]);
    expect(await ruleIds('apps/server/src/modules/admin/probe.ts', "export { settings } from '../../platform/db/platform-schema.ts';\n")).toEqual([]);
  });

  it('lets tests reach into any module', async () => {
    expect(await ruleIds('apps/server/src/modules/admin/probe.test.ts', "export { orders } from '../trading/schema.ts';\n")).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    // gateway.ts imports protocol.ts at run time; protocol.ts importing the gateway back closes a cycle.
    expect(await ruleIds('apps/server/src/realtime/protocol.ts', "export { WsGateway } from './gateway.ts';\n")).toContain('import-x/no-cycle');
  });
});
