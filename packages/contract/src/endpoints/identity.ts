import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  AdminIdentityListInput,
  AdminIdentityRejectInput,
  AdminIdentitySchema,
  AdminIdentityUserInput,
  IdentityCenterSchema,
  ImageUploadInput,
  RealNameInput,
  UploadSchema,
} from '../schemas/identity.ts';

/** Identity verification (spec section 6): the trader's side. */
export const realName = endpoint({
  method: 'POST',
  path: '/api/user_real/real_name',
  auth: 'user',
  realOnly: true,
  input: RealNameInput,
  output: z.null(),
  summary:
    'Submits identity for review: name, card_id and the front and back images (URLs from image_upload); again only after a rejection',
  tags: ['identity'],
  rateLimit: { max: 20, timeWindow: 60_000 },
});

export const identityCenter = endpoint({
  method: 'GET',
  path: '/api/user_real/center',
  auth: 'user',
  realOnly: true,
  output: IdentityCenterSchema,
  summary: 'Identity status: review_status 0 not submitted, 1 under review, 2 verified, 3 rejected (reject_reason)',
  tags: ['identity'],
});

export const imageUpload = endpoint({
  method: 'POST',
  path: '/api/common/image_upload',
  auth: 'user',
  input: ImageUploadInput,
  output: UploadSchema,
  summary:
    'Uploads exactly one JPEG, PNG or WebP image (multipart, at most 5 MB); answers a signed url usable in an <img> for an hour and accepted by real_name',
  tags: ['files'],
  body: 'multipart',
  rateLimit: { max: 30, timeWindow: 60_000 },
});

/** An uploaded file's bytes (`raw`): the signed url image_upload answered, or 404 alike for unknown and not-allowed keys. */
export const uploadedFile = endpoint({
  method: 'GET',
  path: '/uploads/:key',
  auth: 'optional',
  output: z.string(),
  summary: 'The bytes of an uploaded image, for its owner (signed url or session) and staff',
  tags: ['files'],
  raw: true,
});

/** Staff: identity review. Support may look (to answer a user), only compliance (risk) and finance decide. */
const REVIEWERS = ['risk', 'finance', 'support'] as const;
const DECIDERS = ['risk', 'finance'] as const;

export const adminIdentityList = endpoint({
  method: 'GET',
  path: '/api/admin/identity/list',
  auth: 'staff',
  roles: REVIEWERS,
  input: AdminIdentityListInput,
  output: z.object({ data: z.array(AdminIdentitySchema), total: z.number().int() }),
  summary: 'Identity submissions, newest first (status 1 under review, 2 verified, 3 rejected)',
  tags: ['admin'],
});

export const adminIdentityDetail = endpoint({
  method: 'GET',
  path: '/api/admin/identity/detail',
  auth: 'staff',
  roles: REVIEWERS,
  input: AdminIdentityUserInput,
  output: AdminIdentitySchema,
  summary: "One user's identity submission, with signed image URLs",
  tags: ['admin'],
});

export const adminIdentityApprove = endpoint({
  method: 'POST',
  path: '/api/admin/identity/approve',
  auth: 'staff',
  roles: DECIDERS,
  input: AdminIdentityUserInput,
  output: AdminIdentitySchema,
  summary: 'Approves a submission under review (1 -> 2); audited',
  tags: ['admin'],
});

export const adminIdentityReject = endpoint({
  method: 'POST',
  path: '/api/admin/identity/reject',
  auth: 'staff',
  roles: DECIDERS,
  input: AdminIdentityRejectInput,
  output: AdminIdentitySchema,
  summary: 'Rejects a submission under review with a reason the user sees (1 -> 3); audited',
  tags: ['admin'],
});
