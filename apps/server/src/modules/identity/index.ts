import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerIdentityAdminRoutes } from './admin-routes.ts';
import { registerIdentityRoutes } from './routes.ts';
import { IdentityService } from './service.ts';
import { registerUploadRoutes } from './upload-routes.ts';
import { UploadService } from './upload-service.ts';

/** Read model for other modules' screens. */
export { countVerifiedUsers, reviewStatusOf } from './read-model.ts';
export { uploadExists } from './upload-repository.ts';

declare module '../../context.ts' {
  interface Services {
    identity: IdentityService;
    /** Uploaded images: store, check ownership of an upload URL (`ownedKey`), sign URLs for <img>. */
    uploads: UploadService;
  }
}

export const identityModule = {
  name: 'identity',
  register(app: FastifyInstance, ctx: AppContext) {
    ctx.services.identity = new IdentityService(ctx);
    ctx.services.uploads = new UploadService(ctx);
    registerIdentityRoutes(app, ctx);
    registerIdentityAdminRoutes(app, ctx);
    registerUploadRoutes(app, ctx);
  },
};
