import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { TotpSetupSchema } from '../schemas/admin.ts';
import {
  AmendPasswordInput,
  ApiKeyCreateInput,
  ApiKeyCreatedSchema,
  ApiKeyIdInput,
  ApiKeySchema,
  AreaCodeSchema,
  BasicInfoSchema,
  CaptchaSchema,
  ForgetPasswordInput,
  InviteListSchema,
  LoginInput,
  OutboxRowSchema,
  PageInput,
  RegisterInput,
  SendCodeInput,
  SessionSchema,
  SettingInput,
  TotpCodeInput,
  TotpStatusSchema,
  UserSchema,
} from '../schemas/auth.ts';

/** Sign-in attempts and code checks per address per minute. */
const GUESSES_PER_MINUTE = { max: 20, timeWindow: 60_000 } as const;
/** Codes sent by email or text per address per minute. */
const CODE_SENDS_PER_MINUTE = { max: 10, timeWindow: 60_000 } as const;

/** Registration, sign-in and passwords (spec section 3). */
export const register = endpoint({
  method: 'POST',
  path: '/api/user/register',
  auth: 'none',
  input: RegisterInput,
  output: SessionSchema,
  summary: 'Registers a real account by email or mobile (code, or captcha when verify_reg_type is 2) and logs in',
  tags: ['account'],
  rateLimit: GUESSES_PER_MINUTE,
});

export const login = endpoint({
  method: 'POST',
  path: '/api/user/loginForU',
  auth: 'none',
  input: LoginInput,
  output: SessionSchema,
  summary: 'Logs in with account and password (login_type email or mobile), or a demo account by demo_id',
  tags: ['account'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

/** The same login under the path other clients of this API family post the spec's login form to. */
export const loginAlias = endpoint({ ...login, path: '/api/user/login', summary: 'Alias of /api/user/loginForU (same form, same answer)' });

export const forgetPassword = endpoint({
  method: 'POST',
  path: '/api/user/forget_password',
  auth: 'none',
  input: ForgetPasswordInput,
  output: z.null(),
  summary: 'Sets a new password with a code sent by send_email or send_sms with type 2; ends every session',
  tags: ['account'],
  rateLimit: GUESSES_PER_MINUTE,
});

export const amendPassword = endpoint({
  method: 'POST',
  path: '/api/user/amend_password',
  auth: 'user',
  realOnly: true,
  input: AmendPasswordInput,
  output: z.null(),
  summary: "Changes the password with a code sent (type 2) to the user's own email or phone; ends every other session",
  tags: ['account'],
  rateLimit: GUESSES_PER_MINUTE,
});

export const inviteList = endpoint({
  method: 'GET',
  path: '/api/user/invite_list',
  auth: 'user',
  realOnly: true,
  input: PageInput,
  output: InviteListSchema,
  summary: 'Users who registered with my invite code (email and mobile masked)',
  tags: ['account'],
});

export const userInfo = endpoint({
  method: 'GET',
  path: '/api/user/info',
  auth: 'user',
  output: UserSchema,
  summary: 'The logged-in user',
  tags: ['account'],
});

export const logout = endpoint({
  method: ['POST', 'GET'],
  path: '/api/user/logout',
  auth: 'user',
  output: z.null(),
  summary: 'Ends this session on the server',
  tags: ['account'],
});

/** Codes and captchas. */
export const sendEmail = endpoint({
  method: 'POST',
  path: '/api/notify/send_email',
  auth: 'none',
  input: SendCodeInput,
  output: z.null(),
  summary: 'Emails a 6-digit code (type 1 register, 2 reset); answers alike whether or not the account exists',
  tags: ['account'],
  rateLimit: CODE_SENDS_PER_MINUTE,
});

export const sendSms = endpoint({
  method: 'POST',
  path: '/api/notify/send_sms',
  auth: 'none',
  input: SendCodeInput,
  output: z.null(),
  summary: 'Texts a 6-digit code to area_id + to (type 1 register, 2 reset); answers alike whether or not the account exists',
  tags: ['account'],
  rateLimit: CODE_SENDS_PER_MINUTE,
});

export const captcha = endpoint({
  method: 'GET',
  path: '/api/user/captcha',
  auth: 'none',
  output: CaptchaSchema,
  summary: 'A new image captcha: id, and b64s a PNG data URL; answered in register (key + captcha or sms_code)',
  tags: ['account'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

/** The same captcha under the path older clients ask for. */
export const captchaAlias = endpoint({ ...captcha, path: '/api/captcha' });

/** Reference data anyone may read. */
export const areaList = endpoint({
  method: 'GET',
  path: '/api/default/area_list',
  auth: 'none',
  output: z.array(AreaCodeSchema),
  summary: 'Countries and their dialling codes for mobile accounts',
  tags: ['reference'],
});

/** Settings anyone may read through `setting`; everything else stays server-side. */
export const PUBLIC_SETTINGS = ['is_show_mobile', 'verify_reg_type', 'service_link', 'service_link_type', 'trade_fee_type', 'announcement'];

export const setting = endpoint({
  method: 'GET',
  path: '/api/default/setting',
  auth: 'none',
  input: SettingInput,
  output: z.string(),
  summary: `The value of one public setting (${PUBLIC_SETTINGS.join(', ')})`,
  tags: ['reference'],
});

export const basicInfo = endpoint({
  method: 'GET',
  path: '/api/basicSet/getBasicInfo',
  auth: 'none',
  output: BasicInfoSchema,
  summary: 'Base data: support link and its type, registration verification type, trade fee type',
  tags: ['reference'],
});

/** The user center's two-factor page: status, setup (QR code), turn on and off with a code. Real accounts only. */
export const totpStatus = endpoint({
  method: 'GET',
  path: '/api/user/totp/status',
  auth: 'user',
  realOnly: true,
  output: TotpStatusSchema,
  summary: 'Whether two-factor sign-in is on',
  tags: ['account'],
});

export const totpSetup = endpoint({
  method: 'POST',
  path: '/api/user/totp/setup',
  auth: 'user',
  realOnly: true,
  output: TotpSetupSchema,
  summary: 'A secret and its otpauth URL (shown as a QR code); not required until turned on with a code',
  tags: ['account'],
});

export const totpEnable = endpoint({
  method: 'POST',
  path: '/api/user/totp/enable',
  auth: 'user',
  realOnly: true,
  input: TotpCodeInput,
  output: z.null(),
  summary: 'Turns two-factor sign-in on with a code from the authenticator; login and withdrawals then need a code',
  tags: ['account'],
  rateLimit: GUESSES_PER_MINUTE,
});

export const totpDisable = endpoint({
  ...totpEnable,
  path: '/api/user/totp/disable',
  summary: 'Turns two-factor sign-in off with a current code',
});

/**
 * Staff: what the outbox kept. It holds live registration and reset codes (no provider configured),
 * so only the admin role reads it, and every read is audited.
 */
export const adminOutbox = endpoint({
  method: 'GET',
  path: '/api/admin/outbox',
  auth: 'staff',
  roles: ['admin'],
  input: PageInput,
  output: z.object({ data: z.array(OutboxRowSchema), total: z.number().int() }),
  summary: 'Emails and texts kept because no mail or SMS provider is configured (newest first)',
  tags: ['admin'],
});

/**
 * API keys for bots (user centre): a key acts as its user within its scopes (see API_KEY_ENDPOINTS in
 * the endpoint table). Sent as `Authorization: ApiKey <key>`, or signed: `X-API-Key` (the key's id),
 * `X-API-Timestamp` (ms) and `X-API-Signature` (hex HMAC-SHA256 with the key's secret over timestamp +
 * method + path with query + body), at most 60 s old and accepted once. A key never manages keys.
 */
export const apiKeyCreate = endpoint({
  method: 'POST',
  path: '/api/user/api_keys/create',
  auth: 'user',
  input: ApiKeyCreateInput,
  output: ApiKeyCreatedSchema,
  summary:
    'Creates an API key (name, scopes from read and trade, optional ip_allow and expires_at; totp when two-factor is on). Answers {id, key}: the key is shown this once',
  tags: ['account'],
  rateLimit: GUESSES_PER_MINUTE,
});

export const apiKeyList = endpoint({
  method: 'GET',
  path: '/api/user/api_keys/list',
  auth: 'user',
  output: z.array(ApiKeySchema),
  summary: "The user's API keys, newest first, with their last use (never the key itself)",
  tags: ['account'],
});

export const apiKeyRevoke = endpoint({
  method: 'POST',
  path: '/api/user/api_keys/revoke',
  auth: 'user',
  input: ApiKeyIdInput,
  output: z.null(),
  summary: "Revokes one of the user's API keys (id); it stops working at once",
  tags: ['account'],
});
