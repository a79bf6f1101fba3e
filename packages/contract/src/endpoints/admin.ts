import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import {
  AdjustBalanceInput,
  AdjustBalanceSchema,
  AdminBankWireSchema,
  AdminCategorySchema,
  AdminDepositNetworkSchema,
  AdminOrderSchema,
  AdminSymbolSchema,
  AccountGroupSchema,
  AdminUserSchema,
  GroupSaveInput,
  SetGroupInput,
  AdminWithdrawCurrencySchema,
  AuditListInput,
  AuditRowSchema,
  BankWireSaveInput,
  CategorySaveInput,
  DashboardSchema,
  DeskExposureInput,
  DeskClientsSchema,
  DeskExposureSchema,
  DeskHedgesSchema,
  DeskLimitSaveInput,
  DeskLimitSchema,
  DepositNetworkSaveInput,
  EndSessionsInput,
  ChangeDecisionInput,
  ChangeRejectInput,
  FeeChangeInput,
  FeedHealthSchema,
  FixFeedSchema,
  FeePreviewSchema,
  IdInput,
  LedgerEntrySchema,
  pageOf,
  PageInput,
  PendingChangeAnswer,
  PendingChangeSchema,
  PositionListInput,
  PositionReverseInput,
  RecoveryCodesSchema,
  STAFF_TOTP_REQUIRED,
  STAFF_TOTP_SETUP,
  StaffCreateInput,
  StaffLoginAnswer,
  StaffRolesInput,
  StaffSchema,
  StaffStatusInput,
  SymbolSaveInput,
  TotpEnableInput,
  TotpSetupSchema,
  UserIdInput,
  UserOrdersInput,
  UserPageInput,
  UserSearchInput,
  UserSessionSchema,
  UserApiKeyRevokeInput,
  UserStatusInput,
  WithdrawCurrencySaveInput,
} from '../schemas/admin.ts';
import { ApiKeySchema, StaffLoginInput } from '../schemas/auth.ts';
import { RiskWarningSchema } from '../schemas/trading.ts';

/** The back office: every call carries the staff session; the web app sends bodies as JSON. */
const anyStaff = { auth: 'staff', tags: ['admin'], body: 'json' } as const;
const adminOnly = { ...anyStaff, roles: ['admin'] } as const;
const accountStaff = { ...anyStaff, roles: ['support', 'risk', 'finance'] } as const;
const risk = { ...anyStaff, roles: ['risk'] } as const;
const finance = { ...anyStaff, roles: ['finance'] } as const;

/** The signed-in staff member, as sign-in and `me` answer it. */

// ---------------------------------------------------------------- sign-in and two-factor
export const login = endpoint({
  method: 'POST',
  path: '/api/admin/login',
  auth: 'none',
  body: 'json',
  input: StaffLoginInput,
  output: StaffLoginAnswer,
  summary: `Staff sign-in: email, password, then totp (or a recovery_code). Code ${STAFF_TOTP_REQUIRED} asks for the code; code ${STAFF_TOTP_SETUP} (roles that move money, first sign-in) answers {secret, otpauth_url} to set it up. Failures are throttled per account`,
  tags: ['admin'],
  rateLimit: { max: 10, timeWindow: 60_000 },
});

export const me = endpoint({
  ...anyStaff,
  method: 'GET',
  path: '/api/admin/me',
  output: StaffLoginAnswer.shape.staff,
  summary: 'The signed-in staff member',
});

export const logout = endpoint({
  ...anyStaff,
  method: 'POST',
  path: '/api/admin/logout',
  output: z.null(),
  summary: 'Ends the staff session',
});

export const totpSetup = endpoint({
  ...anyStaff,
  method: 'POST',
  path: '/api/admin/totp/setup',
  output: TotpSetupSchema,
  summary: 'Starts two-factor enrolment: a new secret and its otpauth URL (shown as a QR code)',
});

export const totpEnable = endpoint({
  ...anyStaff,
  method: 'POST',
  path: '/api/admin/totp/enable',
  input: TotpEnableInput,
  output: RecoveryCodesSchema,
  summary:
    'Turns two-factor sign-in on with a code from the authenticator; afterwards login requires totp. Answers the one-time recovery codes, shown once',
});

export const totpRecoveryCodes = endpoint({
  ...anyStaff,
  method: 'POST',
  path: '/api/admin/totp/recovery_codes',
  input: TotpEnableInput,
  output: RecoveryCodesSchema,
  summary: 'New one-time recovery codes (the previous ones stop working), confirmed with a current TOTP code; shown once',
});

// ---------------------------------------------------------------- dashboard, staff, audit
export const dashboard = endpoint({
  ...anyStaff,
  method: 'GET',
  path: '/api/admin/dashboard',
  output: DashboardSchema,
  summary: 'Users, review queues, open positions and net exposure per symbol, house profit and fees today, risk events today',
});

export const deskExposure = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/desk/exposure',
  input: DeskExposureInput,
  output: DeskExposureSchema,
  summary:
    "The dealer's desk: per symbol the clients' open long, short and net lots, their USD exposure at current mids and the house's floating profit (the negative of the clients'), with totals and the house's realised counterparty result today (UTC). `demo` 1 for demo accounts, 0 (default) for real. The DESK socket topic pushes the same figures live",
});

export const deskClients = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/desk/clients',
  input: DeskExposureInput,
  output: DeskClientsSchema,
  summary:
    "The dealer's desk, the clients who move the book: the largest open positions, the largest floating profits, the most profitable accounts over 30 days, the accounts near their margin call or stop-out (margin level and since when), and each client's flow quality over 30 days (average holding time, share of trades closed within seconds in profit, a toxic-flow flag). `demo` 1 for demo accounts",
});

export const deskHedges = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/desk/hedges',
  output: DeskHedgesSchema,
  summary:
    "The hedge book beside the clients' net exposure: per symbol the A-book and hybrid clients' net lots, the providers' target and held lots; per FIX session and symbol the position; the newest 100 hedge orders with their status and mismatch (rejected, timeout, partial, late_fill, unwind_failed, target_not_reached)",
});

export const deskLimits = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/desk/limits',
  output: z.array(DeskLimitSchema),
  summary: "The desk's limits on the clients' net lots per symbol; the desk's figures flag a symbol whose net lots pass its limit",
});

export const deskLimitSave = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/desk/limits/save',
  input: DeskLimitSaveInput,
  output: z.array(DeskLimitSchema),
  summary: "Sets or removes (empty or 0) a symbol's limit on the clients' net lots either way; audited. Answers every limit",
});

export const staffList = endpoint({
  ...adminOnly,
  method: 'GET',
  path: '/api/admin/staff/list',
  output: z.array(StaffSchema),
  summary: 'All staff accounts',
});

export const staffCreate = endpoint({
  ...adminOnly,
  method: 'POST',
  path: '/api/admin/staff/create',
  input: StaffCreateInput,
  output: StaffSchema,
  summary: 'Creates a staff account with roles (admin, finance, risk, support, content)',
});

export const staffRoles = endpoint({
  ...adminOnly,
  method: 'POST',
  path: '/api/admin/staff/roles',
  input: StaffRolesInput,
  output: StaffSchema,
  summary: "Replaces a staff member's roles",
});

export const staffStatus = endpoint({
  ...adminOnly,
  method: 'POST',
  path: '/api/admin/staff/status',
  input: StaffStatusInput,
  output: StaffSchema,
  summary: 'Disables (0, ending the sessions) or enables (1) a staff account',
});

export const auditList = endpoint({
  ...adminOnly,
  method: 'GET',
  path: '/api/admin/audit/list',
  input: AuditListInput,
  output: pageOf(AuditRowSchema),
  summary: 'The staff audit log, newest first, filtered by staff, action or target',
});

// ---------------------------------------------------------------- traders' accounts (support, risk, finance)
export const userSearch = endpoint({
  ...accountStaff,
  method: 'GET',
  path: '/api/admin/users/search',
  input: UserSearchInput,
  output: pageOf(AdminUserSchema),
  summary: 'Users whose email or mobile contains q, or whose uid or id is q; newest first',
});

export const userProfile = endpoint({
  ...accountStaff,
  method: 'GET',
  path: '/api/admin/users/profile',
  input: UserIdInput,
  output: AdminUserSchema,
  summary: "A user's profile with balances and identity review status",
});

export const userSessions = endpoint({
  ...accountStaff,
  method: 'GET',
  path: '/api/admin/users/sessions',
  input: UserIdInput,
  output: z.array(UserSessionSchema),
  summary: "A user's open sessions",
});

export const userSessionsEnd = endpoint({
  ...accountStaff,
  method: 'POST',
  path: '/api/admin/users/sessions/end',
  input: EndSessionsInput,
  output: z.null(),
  summary: 'Ends one session (session_id) or all sessions of a user',
});

export const userApiKeys = endpoint({
  ...accountStaff,
  method: 'GET',
  path: '/api/admin/users/api_keys',
  input: UserIdInput,
  output: z.array(ApiKeySchema),
  summary: "A user's API keys (never the keys themselves), with their last use",
});

export const userApiKeyRevoke = endpoint({
  ...accountStaff,
  method: 'POST',
  path: '/api/admin/users/api_keys/revoke',
  input: UserApiKeyRevokeInput,
  output: z.null(),
  summary: "Revokes one of a user's API keys (user_id, id); audited",
});

export const userLedger = endpoint({
  ...accountStaff,
  method: 'GET',
  path: '/api/admin/users/ledger',
  input: UserPageInput,
  output: pageOf(LedgerEntrySchema),
  summary: "A user's ledger entries (cash and locked), newest first",
});

export const userOrders = endpoint({
  ...accountStaff,
  method: 'GET',
  path: '/api/admin/users/orders',
  input: UserOrdersInput,
  output: pageOf(AdminOrderSchema),
  summary: "A user's orders of any status (or of one: 0 pending, 1 open, 3 closed, 4 cancelled), newest first",
});

export const userStatus = endpoint({
  ...accountStaff,
  method: 'POST',
  path: '/api/admin/users/status',
  input: UserStatusInput,
  output: AdminUserSchema,
  summary: 'Disables (0; ends every session) or enables (1) a user',
});

export const adjustBalance = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/users/adjust_balance',
  input: AdjustBalanceInput,
  output: AdjustBalanceSchema,
  summary: "Adds (positive) or takes (negative) an amount from the user's balance with a reason; once per key; never below zero",
});

// ---------------------------------------------------------------- trading setup (risk)
export const fees = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/fees',
  output: FeePreviewSchema,
  summary: "The trade fee type and every symbol's fee rate, with what a 1-lot trade pays",
});

export const feesPreview = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/fees/preview',
  input: FeeChangeInput,
  output: FeePreviewSchema,
  summary: 'What a 1-lot trade on each symbol would pay before and after a change of the fee type or rates (nothing is saved)',
});

export const feesSave = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/fees/save',
  input: FeeChangeInput,
  output: z.union([PendingChangeAnswer, FeePreviewSchema]),
  summary:
    "Changes the fee type and rates when every rate is within its type's range; audited. With four-eyes on (FOUR_EYES), answers {pending_change_id} and changes nothing until a second risk or admin member approves",
});

export const symbols = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/symbols',
  output: z.array(AdminSymbolSchema),
  summary: 'Every symbol with its trading terms',
});

export const symbolSave = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/symbols/save',
  input: SymbolSaveInput,
  output: z.union([PendingChangeAnswer, AdminSymbolSchema]),
  summary:
    "Changes a symbol's terms (fields left out keep their value); the trade page follows at once. With four-eyes on (FOUR_EYES), answers {pending_change_id} and changes nothing until a second risk or admin member approves",
});

export const feedHealth = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/feed-health',
  output: z.array(FeedHealthSchema),
  summary: "Each symbol's price feed: live, stale, no live tick since start or outside its sessions; last tick age and suspect ticks held",
});

export const fixFeed = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/fix-feed',
  output: FixFeedSchema,
  summary:
    'PRICE_SOURCE=fix: the routing mode (failover or best), each FIX session (logged on, last message, sequence numbers, gaps, reconnects) and per symbol the sessions its bid and ask come from; empty on a server that runs no FIX source (a follower)',
});

export const categories = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/categories',
  output: z.array(AdminCategorySchema),
  summary: 'Symbol categories',
});

export const categorySave = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/categories/save',
  input: CategorySaveInput,
  output: AdminCategorySchema,
  summary: 'Creates (no id) or updates a category (key names its translation)',
});

export const positions = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/positions',
  input: PositionListInput,
  output: pageOf(AdminOrderSchema),
  summary: 'Open positions, newest first, optionally of one user or symbol',
});

export const positionClose = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/positions/close',
  input: IdInput,
  output: AdminOrderSchema,
  summary: "Closes a user's open position at the current price (closed_type 5), exactly once",
});

export const positionReverse = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/trades/reverse',
  input: PositionReverseInput,
  output: z.union([PendingChangeAnswer, AdminOrderSchema]),
  summary:
    "Reverses a closed trade (e.g. filled on an off-market price): its realised profit/loss and fee are taken back through the ledger in one transaction, once (a second reversal is refused), audited with the reason; the trader's history shows it reversed and a referred client's partner commissions on it are clawed back. Refused when the trader's balance cannot cover a profit taken back. With four-eyes on (FOUR_EYES), answers {pending_change_id} and changes nothing until a second risk or admin member approves",
});

// ---------------------------------------------------------------- funding setup (finance): one list, save and delete per table
export const depositNetworks = endpoint({
  ...finance,
  method: 'GET',
  path: '/api/admin/deposit_networks',
  output: z.array(AdminDepositNetworkSchema),
  summary: 'Every deposit network (currency, protocol, address, usd_price)',
});

export const depositNetworkSave = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/deposit_networks/save',
  input: DepositNetworkSaveInput,
  output: AdminDepositNetworkSchema,
  summary: 'Creates (no id) or updates a deposit network (currency, protocol, address, usd_price)',
});

export const depositNetworkDelete = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/deposit_networks/delete',
  input: IdInput,
  output: z.null(),
  summary: 'Deletes a deposit network nothing refers to',
});

export const bankWires = endpoint({
  ...finance,
  method: 'GET',
  path: '/api/admin/bank_wires',
  output: z.array(AdminBankWireSchema),
  summary: 'Every bank wire account',
});

export const bankWireSave = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/bank_wires/save',
  input: BankWireSaveInput,
  output: AdminBankWireSchema,
  summary: 'Creates (no id) or updates a bank wire account',
});

export const bankWireDelete = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/bank_wires/delete',
  input: IdInput,
  output: z.null(),
  summary: 'Deletes a bank wire account nothing refers to',
});

export const withdrawCurrencies = endpoint({
  ...finance,
  method: 'GET',
  path: '/api/admin/withdraw_currencies',
  output: z.array(AdminWithdrawCurrencySchema),
  summary: 'Every withdraw currency (fee type, rate, usd_price, limits, address pattern)',
});

export const withdrawCurrencySave = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/withdraw_currencies/save',
  input: WithdrawCurrencySaveInput,
  output: AdminWithdrawCurrencySchema,
  summary: 'Creates (no id) or updates a withdraw currency (fee type, rate, usd_price, limits, address pattern)',
});

export const withdrawCurrencyDelete = endpoint({
  ...finance,
  method: 'POST',
  path: '/api/admin/withdraw_currencies/delete',
  input: IdInput,
  output: z.null(),
  summary: 'Deletes a withdraw currency nothing refers to',
});

// ---------------------------------------------------------------- account groups (risk)
export const groupsList = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/groups/list',
  output: z.array(AccountGroupSchema),
  summary:
    "Every account group with its account-wide terms, its members' count and its per-symbol terms (a symbol with no row trades on the symbol's own terms)",
});

export const groupSave = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/groups/save',
  input: GroupSaveInput,
  output: z.union([PendingChangeAnswer, AccountGroupSchema]),
  summary:
    "Creates (no id) or updates an account group (fields left out keep their value; symbols, when given, replace the group's rows); audited. Open positions keep their opening terms, new orders take the new ones. With four-eyes on (FOUR_EYES), answers {pending_change_id} and changes nothing until a second risk or admin member approves",
});

export const userSetGroup = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/users/set_group',
  input: SetGroupInput,
  output: AdminUserSchema,
  summary:
    "Moves a user to another account group of their kind (demo or real); audited. Open positions keep their opening terms, new orders take the group's, margin levels recompute at once",
});

// ---------------------------------------------------------------- four-eyes changes (risk)
export const changesList = endpoint({
  ...risk,
  method: 'GET',
  path: '/api/admin/changes/list',
  input: PageInput,
  output: pageOf(PendingChangeSchema),
  summary:
    'Proposed changes to money rules (symbol terms, fees, margin-call and stop-out levels): pending first (oldest first), then decided ones, newest first; each pending one with a preview at the current quotes',
});

export const changesApprove = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/changes/approve',
  input: ChangeDecisionInput,
  output: PendingChangeSchema,
  summary:
    "Applies a pending change, checked as a direct save is; refused to its proposer, and refused (the change superseded) when the target's values changed since the proposal; audited",
});

export const changesReject = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/changes/reject',
  input: ChangeRejectInput,
  output: PendingChangeSchema,
  summary: 'Rejects a pending change (optional reason); nothing is applied; audited',
});

export const riskWarningCompute = endpoint({
  ...risk,
  method: 'POST',
  path: '/api/admin/risk_warning/compute',
  output: RiskWarningSchema,
  summary: 'Computes the risk warning percentage now (it is otherwise recomputed daily) and answers it as traders will see it; audited',
});
