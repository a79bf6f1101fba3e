import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@tp/contract/codes';
import { call, createTestApp, dbTargets, type TestApp } from './test-app.ts';

/** Calls other clients of this API family send (issue 22), answered like the spec's own. */
describe.each(dbTargets)('client aliases on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { DEMO_CREATE_RATE_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  it('logs in with the spec\'s login form posted to /api/user/login, as loginForU does', async () => {
    const demo = await call(t, 'GET', '/api/user/createAccountDemoForU');
    const viaAlias = await call(t, 'POST', '/api/user/login', { demo_id: demo.data.demo_id });
    expect(viaAlias.code).toBe(1);
    expect(viaAlias.data).toMatchObject({ token: expect.any(String), user: { id: demo.data.id, is_demo: 1 } });
    const wrong = await call(t, 'POST', '/api/user/login', { login_type: 'email', account: 'nobody@example.com', password: 'wrong-password-1' });
    const wrongSpec = await call(t, 'POST', '/api/user/loginForU', { login_type: 'email', account: 'nobody@example.com', password: 'wrong-password-1' });
    expect({ code: wrong.code, msg: wrong.msg }).toEqual({ code: wrongSpec.code, msg: wrongSpec.msg });
  });

  it('answers GET /api/quickCharge/submit with query parameters like the POST form (not 404)', async () => {
    const demo = await call(t, 'GET', '/api/user/createAccountDemoForU');
    const session = await call(t, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    const viaGet = await call(t, 'GET', '/api/quickCharge/submit', { number: '100', charge_id: 1 }, { token: session.data.token });
    const viaPost = await call(t, 'POST', '/api/quickCharge/submit', { number: '100', charge_id: 1 }, { token: session.data.token });
    expect(viaGet.code).not.toBe(Code.NOT_FOUND);
    // A demo account may not deposit: both methods give the spec's "only real account" answer.
    expect(viaGet).toEqual(viaPost);
    expect(viaGet.code).toBe(Code.DEMO_BLOCKED);
  });
});
