import { z } from 'zod';
import { idField, intField, optionalIdField, text } from './fields.ts';

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

/** Answer code of loginForU: a captcha is needed first (failed logins on the account); nothing else was checked. */
export { LOGIN_CAPTCHA_REQUIRED, LOGIN_TOTP_REQUIRED } from '../codes.ts';

export const StaffLoginInput = z.object({
  email: z.string().trim().min(1, 'msg:account_required'),
  password: z.string().min(1, 'msg:password_required'),
  totp: z.string().optional(),
  /** A one-time recovery code instead of the TOTP code. */
  recovery_code: z.string().max(40).optional(),
});

// ---------------------------------------------------------------- form value helpers
/** Form values arrive as strings, JSON ones maybe as numbers; blank means absent. */
const blankToUndefined = (v: unknown) => (v === null || v === '' ? undefined : typeof v === 'number' ? String(v) : v);
const optionalText = z.preprocess(blankToUndefined, text().trim().max(320, 'msg:text_too_long').optional());
const requiredText = (key: string) =>
  z.preprocess(blankToUndefined, text(`msg:${key}`).trim().min(1, `msg:${key}`).max(320, 'msg:text_too_long'));
/** Passwords are taken as typed: never trimmed. */
const optionalPassword = z.preprocess(blankToUndefined, z.string().optional());
const requiredPassword = (key: string) => z.preprocess(blankToUndefined, z.string({ error: `msg:${key}` }).min(1, `msg:${key}`));
const optionalId = optionalIdField('area_invalid');

/** How an account is identified: 'email' (or 1) and 'mobile' (or 2). */
const accountTypeEnum = z
  .enum(['email', 'mobile', '1', '2'], { error: 'msg:account_type_invalid' })
  .transform((v): 'email' | 'mobile' => (v === '2' || v === 'mobile' ? 'mobile' : 'email'));
/** Blank or absent means email. */
export const AccountType = z.preprocess((v) => blankToUndefined(v) ?? 'email', accountTypeEnum);
const optionalAccountType = z.preprocess(blankToUndefined, accountTypeEnum.optional());
export type AccountTypeValue = 'email' | 'mobile';

/** Why a code is sent: 1 register, 2 reset (forgotten or changed password). */
export const CodePurpose = { REGISTER: 1, RESET: 2 } as const;

// ---------------------------------------------------------------- calls
/**
 * POST /api/user/register. `account` is the email, or the phone number for mobile (`mobile` is
 * accepted in its place). `sms_code` is the emailed or SMS code; when verify_reg_type is 2 it is
 * the captcha answer instead (or `captcha`), with the captcha id in `key`.
 */
export const RegisterInput = z.preprocess(
  (raw) => {
    const r = { ...(raw as Record<string, unknown>) };
    if ((r.account === undefined || r.account === '') && r.mobile) r.account = r.mobile;
    return r;
  },
  z.object({
    type: AccountType,
    account: requiredText('account_required'),
    area_id: optionalId,
    mobile: optionalText,
    password: requiredPassword('password_required'),
    re_password: requiredPassword('please_complete'),
    invite_code: optionalText,
    sms_code: optionalText,
    captcha: optionalText,
    key: optionalText,
  }),
);
export type RegisterInputValue = z.infer<typeof RegisterInput>;

/** POST /api/user/loginForU: account and password (login_type email or mobile, area_id for mobile), or demo_id. */
export const LoginInput = z
  .object({
    account: optionalText,
    password: optionalPassword,
    login_type: optionalAccountType,
    area_id: optionalId,
    demo_id: optionalText,
    /** A captcha (id from /api/user/captcha, and its answer), asked for after failed logins of the account. */
    key: optionalText,
    captcha: optionalText,
    /** The authenticator code, for accounts with two-factor sign-in on. */
    totp: optionalText,
  })
  .superRefine((v, ctx) => {
    if (v.demo_id) return;
    if (!v.account) ctx.addIssue({ code: 'custom', path: ['account'], message: 'msg:account_required' });
    else if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'msg:password_required' });
  });
export type LoginInputValue = z.infer<typeof LoginInput>;

/** POST /api/notify/send_email and /api/notify/send_sms. */
export const SendCodeInput = z.object({
  to: requiredText('account_required'),
  area_id: optionalId,
  type: z.preprocess(blankToUndefined, z.enum(['1', '2'], { error: 'msg:code_type_invalid' }).transform(Number)),
});
export type SendCodeInputValue = z.infer<typeof SendCodeInput>;

/** POST /api/user/forget_password: the code was sent with type 2 to the account's email or phone. */
export const ForgetPasswordInput = z
  .object({
    type: AccountType,
    account: requiredText('account_required'),
    area_id: optionalId,
    new_password: requiredPassword('please_complete'),
    secondary_password: requiredPassword('please_complete'),
    auth_code: requiredText('code_required'),
  })
  .refine((v) => v.new_password === v.secondary_password, { message: 'msg:password_mismatch', path: ['secondary_password'] });
export type ForgetPasswordInputValue = z.infer<typeof ForgetPasswordInput>;

/** POST /api/user/amend_password (logged in): the code was sent with type 2 to the user's own email (type email) or phone (type mobile). */
export const AmendPasswordInput = z
  .object({
    new_password: requiredPassword('please_complete'),
    re_password: optionalPassword,
    secondary_password: optionalPassword,
    auth_code: requiredText('code_required'),
    type: AccountType,
  })
  .refine((v) => [v.re_password, v.secondary_password].every((c) => c === undefined || c === v.new_password), {
    message: 'msg:password_mismatch',
    path: ['re_password'],
  });
export type AmendPasswordInputValue = z.infer<typeof AmendPasswordInput>;

export const PageInput = z.object({
  page: intField(1, 1_000_000, 'invalid_number', 1),
  limit: intField(1, 100, 'invalid_number', 10),
});

export const CaptchaSchema = z.object({ id: z.string(), b64s: z.string() });

export const InviteRowSchema = z.object({ uid: z.string(), email: z.string(), mobile: z.string(), created_at: z.string() });
export const InviteListSchema = z.object({ data: z.array(InviteRowSchema), total: z.number().int() });

export const AreaCodeSchema = z.object({ id: z.number().int(), code: z.string(), global_code: z.string(), name: z.string() });

export const SettingInput = z.object({ key: requiredText('invalid_request') });

export const BasicInfoSchema = z.object({
  service_link: z.string(),
  service_link_type: z.number().int(),
  verify_reg_type: z.number().int(),
  trade_fee_type: z.number().int(),
  /** 1: a withdrawal needs a verified identity (the server refuses it otherwise); 0: it does not. Deposits never do. */
  withdraw_requires_identity: z.union([z.literal(0), z.literal(1)]),
});

export const OutboxRowSchema = z.object({
  id: z.number().int(),
  channel: z.string(),
  destination: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
});

/** A trader's two-factor calls: the 6-digit code from the authenticator app. */
export const TotpCodeInput = z.object({
  code: z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'msg:totp_code_required' })
      .trim()
      .regex(/^\d{6}$/, 'msg:totp_code_required'),
  ),
});
export const TotpStatusSchema = z.object({ enabled: z.boolean() });

// ---------------------------------------------------------------- API keys for bots
/** What a key may do: `read` the account, orders and market data; `trade` also submit, close and modify orders. */
export const API_KEY_SCOPES = ['read', 'trade'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** Keys one user may hold at once (revoked and expired ones do not count). */
export const MAX_API_KEYS = 10;
/** Addresses or CIDR ranges one key's allow-list may hold. */
export const MAX_API_KEY_IPS = 20;

/** A list sent as an array (JSON) or as text separated by commas or spaces (form). */
const listOf = (v: unknown) =>
  v === undefined || v === null || v === ''
    ? []
    : Array.isArray(v)
      ? v.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '')
      : typeof v === 'string'
        ? v.split(/[\s,]+/).filter(Boolean)
        : v;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:.]+$/i;
/** An IPv4 or IPv6 address, or a CIDR range of one (`10.0.0.0/8`, `2001:db8::/32`). */
const ipOrRange = z.string().refine((s) => {
  const [ip = '', bits, ...rest] = s.split('/');
  if (rest.length) return false;
  const v4 = IPV4.test(ip);
  const v6 = !v4 && ip.includes(':') && IPV6.test(ip) && ip.length <= 45;
  if (!v4 && !v6) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128));
}, 'msg:api_key_ip_invalid');

export const ApiKeyCreateInput = z.object({
  name: requiredText('api_key_name_required').pipe(z.string().max(60, 'msg:text_too_long')),
  scopes: z.preprocess(
    listOf,
    z
      .array(z.enum(API_KEY_SCOPES, { error: 'msg:api_key_scope_invalid' }), { error: 'msg:api_key_scope_invalid' })
      .min(1, 'msg:api_key_scope_invalid')
      .max(API_KEY_SCOPES.length, 'msg:api_key_scope_invalid'),
  ),
  ip_allow: z.preprocess(listOf, z.array(ipOrRange, { error: 'msg:api_key_ip_invalid' }).max(MAX_API_KEY_IPS, 'msg:api_key_ip_invalid')),
  /** When the key stops working: an ISO 8601 time or milliseconds since 1970; none keeps it until revoked. */
  expires_at: z.preprocess(
    (v) => (v === null || v === '' ? undefined : typeof v === 'string' && /^\d{10,15}$/.test(v) ? Number(v) : v),
    z
      .union([z.number().int().positive(), z.string().max(40)], { error: 'msg:api_key_expiry_invalid' })
      .transform((v, ctx) => {
        const at = new Date(v);
        if (Number.isNaN(at.getTime())) {
          ctx.addIssue({ code: 'custom', message: 'msg:api_key_expiry_invalid' });
          return z.NEVER;
        }
        return at;
      })
      .optional(),
  ),
  /** The current two-factor code, when two-factor sign-in is on (as for withdrawals). */
  totp: optionalText,
});

export const ApiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.string()),
  ip_allow: z.array(z.string()),
  /** ISO 8601, or null when the key does not expire. */
  expires_at: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
/** The answer of create, once: the key itself is never shown again. */
export const ApiKeyCreatedSchema = z.object({ id: z.number().int(), key: z.string() });
export const ApiKeyIdInput = z.object({ id: idField('not_found') });
