import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { serverMessages } from '@tp/contract/pushes';

const root = new URL('../../../../', import.meta.url).pathname;
const configFile: string = `${root}eslint.config.js`;
const { PUSH_TYPES } = (await import(configFile)) as { PUSH_TYPES: string[] };

/** The lint rule that keeps socket messages built from their declarations. */
describe('building socket messages outside the contract', () => {
  const lint = async (code: string) => {
    const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: `${root}apps/server/src/modules/example.ts` });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
  };

  it('knows the type of every JSON message the server sends', () => {
    const declared = new Set(Object.values(serverMessages).flatMap((d) => (d.frame === 'json' ? [d.type] : [])));
    expect([...PUSH_TYPES].sort()).toEqual([...declared].sort());
  });

  it('refuses an object literal naming a message type, and takes the builder', async () => {
    expect(await lint("export const a = { type: 'NOTICE', kind: 'x' };\n")).toBe(1);
    expect(
      await lint("import { WsTopic } from '@tp/contract/constants';\nexport const a = { type: WsTopic.FOREX_CLOSED, id: [] };\n"),
    ).toBe(1);
    expect(
      await lint("import { SESSION_ENDED_PUSH } from '@tp/contract/constants';\nexport const a = { type: SESSION_ENDED_PUSH };\n"),
    ).toBe(1);
    expect(
      await lint("import { pushMessage } from '@tp/contract/pushes';\nexport const a = pushMessage('FOREX_CLOSED', { id: [] });\n"),
    ).toBe(0);
    expect(await lint("export const a = { type: 'market', id: [] };\n")).toBe(0);
  });
});
