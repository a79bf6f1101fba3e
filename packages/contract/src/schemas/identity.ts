import { z } from 'zod';
import { idField, optionalChoiceField, text } from './fields.ts';
import { PageInput } from './auth.ts';

const blankToUndefined = (v: unknown) => (v === null || v === '' ? undefined : typeof v === 'number' ? String(v) : v);
const requiredText = (key: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    text(`msg:${key}`)
      .trim()
      .min(1, `msg:${key}`)
      .max(max, `msg:${key}`),
  );

/** POST /api/user_real/real_name: front_pic and reverse_pic are URLs answered by /api/common/image_upload. */
export const RealNameInput = z.object({
  name: requiredText('identity_name_required', 100),
  card_id: requiredText('identity_card_required', 64),
  front_pic: requiredText('identity_pics_required', 2000),
  reverse_pic: requiredText('identity_pics_required', 2000),
});
export type RealNameInputValue = z.infer<typeof RealNameInput>;

/** review_status: 0 not submitted, 1 under review, 2 verified, 3 rejected (reject_reason says why). */
export const IdentityCenterSchema = z.object({
  review_status: z.number().int(),
  reject_reason: z.string(),
  name: z.string(),
  card_id: z.string(),
  front_pic: z.string(),
  reverse_pic: z.string(),
});

/** Answer of POST /api/common/image_upload: a URL usable in an <img> for a short while and accepted by real_name. */
export const UploadSchema = z.object({ url: z.string() });

const userId = idField('invalid_request');

export const AdminIdentityListInput = PageInput.extend({
  status: optionalChoiceField([1, 2, 3]),
});
export const AdminIdentityUserInput = z.object({ user_id: userId });
export const AdminIdentityRejectInput = z.object({ user_id: userId, reason: requiredText('identity_reason_required', 500) });

export const AdminIdentitySchema = IdentityCenterSchema.extend({
  user_id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  mobile: z.string(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
});

/**
 * The image is the multipart body's one file part, which the handler streams (it never reaches the parsed
 * input); a `file` sent as text is refused as not an image.
 */
export const ImageUploadInput = z.object({
  file: z.custom<Blob>((v) => typeof Blob !== 'undefined' && v instanceof Blob, 'msg:upload_one_image').optional(),
});
