import { z } from 'zod';

export const UserSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  mobile: z.string(),
  area_id: z.number().int(),
  is_demo: z.union([z.literal(0), z.literal(1)]),
  invite_code: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const SessionSchema = z.object({ token: z.string(), user: UserSchema });
export type Session = z.infer<typeof SessionSchema>;

export const StaffLoginInput = z.object({
  email: z.string().trim().min(1, 'msg:account_required'),
  password: z.string().min(1, 'msg:password_required'),
  totp: z.string().optional(),
});
