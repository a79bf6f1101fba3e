import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { setAuthenticators } from '../../http/route.ts';
import { MemoryThrottle, type Throttle } from '../../platform/throttle.ts';
import { AccountService } from './account-service.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { ApiKeyService } from './api-key-service.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { CaptchaService } from './captcha-service.ts';
import { deleteStaleCodes } from './code-repository.ts';
import { registerCodeRoutes } from './code-routes.ts';
import { CodeService } from './code-service.ts';
import { usePasswordConcurrency, usePasswordCost } from './password.ts';
import { registerAuthRoutes } from './routes.ts';
import { registerTwoFactorRoutes } from './two-factor-routes.ts';
import { SessionService } from './session-service.ts';
import { TwoFactorService } from './two-factor-service.ts';
import { registerSettingRoutes } from './setting-routes.ts';

/** What other modules may use of auth, besides its services on `ctx.services`. */
export { hashPassword, needsRehash, verifyPassword } from './password.ts';
export { SecretGuard, SECRET_FAILURES, type SecretOwner } from './secret-guard.ts';
export { findUserById, insertUser, isUniqueViolation, setUserGroup, setUserStatus, userGroupIds, type UserRow } from './user-repository.ts';
export {
  countUsersByKind,
  invitedPage,
  invitersOf,
  rankableUsers,
  realUsersInvitedBy,
  searchUsers,
  userContacts,
  type UserContact,
} from './read-model.ts';

declare module '../../context.ts' {
  interface Services {
    sessions: SessionService;
    /** Login and code throttles (in memory; shared through Redis in a later version). */
    throttle: Throttle;
    codes: CodeService;
    captcha: CaptchaService;
    accounts: AccountService;
    twoFactor: TwoFactorService;
    apiKeys: ApiKeyService;
  }
}

const CLEANUP_EVERY_MS = 60 * 60_000;
const KEEP_STALE_MS = 24 * 60 * 60_000;

export const authModule = {
  name: 'auth',
  register(app: FastifyInstance, ctx: AppContext) {
    if (ctx.config.NODE_ENV === 'test' && ctx.config.PASSWORD_SCRYPT_N) usePasswordCost(ctx.config.PASSWORD_SCRYPT_N);
    usePasswordConcurrency(ctx.config.PASSWORD_HASH_CONCURRENCY, ctx.config.PASSWORD_HASH_QUEUE);
    const sessions = new SessionService(ctx);
    ctx.services.sessions = sessions;
    ctx.services.throttle = new MemoryThrottle();
    ctx.services.codes = new CodeService(ctx);
    ctx.services.captcha = new CaptchaService(ctx);
    ctx.services.accounts = new AccountService(ctx);
    ctx.services.twoFactor = new TwoFactorService(ctx);
    const apiKeys = new ApiKeyService(ctx);
    ctx.services.apiKeys = apiKeys;
    setAuthenticators({
      user: (t) => sessions.resolveUser(t),
      staff: (t) => sessions.resolveStaff(t),
      apiKey: (credentials, ip) => apiKeys.authenticate(credentials, ip),
    });
    registerAuthRoutes(app, ctx);
    registerTwoFactorRoutes(app, ctx);
    registerAccountRoutes(app, ctx);
    registerCodeRoutes(app, ctx);
    registerSettingRoutes(app, ctx);
    registerApiKeyRoutes(app, ctx);

    let timer: NodeJS.Timeout | undefined;
    ctx.background.push({
      name: 'auth-cleanup',
      start() {
        timer = setInterval(() => {
          deleteStaleCodes(ctx.db, new Date(Date.now() - KEEP_STALE_MS)).catch((err: unknown) =>
            ctx.log.warn({ err }, 'code cleanup failed'),
          );
        }, CLEANUP_EVERY_MS);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await ctx.services.codes.settled();
      },
    });
  },
};
