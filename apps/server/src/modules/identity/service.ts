import { ReviewStatus } from '@tp/contract/constants';
import type { Notice } from '@tp/contract/schemas/trading';
import type { AppContext, AuthStaff } from '../../context.ts';
import { accountNotice } from '../trading/index.ts';
import { fail, invalid, notFound } from '../../http/errors.ts';
import { findIdentity, type IdentityRow, listIdentities, reviewIdentity, submitIdentity } from './repository.ts';

export interface RealNameSubmission {
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
}

/** The notice of a reviewed identity: verified, or rejected with the reason staff gave. */
export function identityNotice(row: IdentityRow): Notice | null {
  if (!row.reviewedAt) return null;
  if (row.reviewStatus === ReviewStatus.VERIFIED) return accountNotice('identity_verified', row.reviewedAt);
  if (row.reviewStatus === ReviewStatus.REJECTED) return accountNotice('identity_rejected', row.reviewedAt, { reason: row.rejectReason });
  return null;
}

/** Who a user is: identity records, their review by staff, and the verified flag other modules ask for. */
export class IdentityService {
  constructor(private readonly ctx: AppContext) {
    // The latest review of the user's identity in their notifications (a resubmission replaces it).
    ctx.services.trading.accountNotices.addSource(async (userId) => {
      const row = await findIdentity(ctx.db, userId);
      const notice = row ? identityNotice(row) : null;
      return notice ? { rows: [notice], total: 1 } : { rows: [], total: 0 };
    });
  }

  /** True once staff have approved the user's identity (review_status 2). */
  async isVerified(userId: number): Promise<boolean> {
    const row = await findIdentity(this.ctx.db, userId);
    return row?.reviewStatus === ReviewStatus.VERIFIED;
  }

  /** The identity page: review_status 0 with empty fields until something is submitted. */
  async center(userId: number) {
    const row = await findIdentity(this.ctx.db, userId);
    if (!row)
      return { review_status: ReviewStatus.NOT_SUBMITTED, reject_reason: '', name: '', card_id: '', front_pic: '', reverse_pic: '' };
    return this.present(row);
  }

  /** Submits (or, after a rejection, resubmits) name, id number and both images of the user's own uploads. */
  async submit(userId: number, input: RealNameSubmission): Promise<void> {
    const uploads = this.ctx.services.uploads;
    const front = await uploads.ownedKey(userId, input.front_pic);
    const reverse = await uploads.ownedKey(userId, input.reverse_pic);
    if (!front || !reverse) throw invalid('identity_pic_invalid');
    if (front === reverse) throw invalid('identity_pics_same');
    const row = await submitIdentity(
      this.ctx.db,
      { userId, name: input.name, cardId: input.card_id, frontPic: uploads.pathOf(front), reversePic: uploads.pathOf(reverse) },
      ReviewStatus.UNDER_REVIEW,
      ReviewStatus.REJECTED,
    );
    if (row) return;
    const current = await findIdentity(this.ctx.db, userId);
    throw fail(current?.reviewStatus === ReviewStatus.VERIFIED ? 'identity_already_verified' : 'identity_under_review');
  }

  async list(status: number | undefined, page: number, limit: number) {
    const { rows, total } = await listIdentities(this.ctx.db, { status, limit, offset: (page - 1) * limit });
    const data = await Promise.all(rows.map((r) => this.presentForStaff(r.record, r)));
    return { data, total };
  }

  async detail(userId: number) {
    const { rows } = await listIdentities(this.ctx.db, { userId, limit: 1, offset: 0 });
    const row = rows[0];
    if (!row) throw notFound();
    return this.presentForStaff(row.record, row);
  }

  approve(staff: AuthStaff, userId: number) {
    return this.review(staff, userId, ReviewStatus.VERIFIED, null);
  }

  reject(staff: AuthStaff, userId: number, reason: string) {
    return this.review(staff, userId, ReviewStatus.REJECTED, reason);
  }

  /** Moves a record under review to verified or rejected, once, with a line in the staff audit log. */
  private async review(staff: AuthStaff, userId: number, to: number, reason: string | null) {
    const reviewed = await this.ctx.db.transaction(async (tx) => {
      const before = await findIdentity(tx, userId);
      if (!before) throw notFound();
      const after = await reviewIdentity(tx, userId, ReviewStatus.UNDER_REVIEW, to, staff.id, reason);
      if (!after) throw fail('identity_not_under_review');
      await this.ctx.services.staff.audit(
        tx,
        staff,
        to === ReviewStatus.VERIFIED ? 'identity.approve' : 'identity.reject',
        { type: 'user', id: userId },
        { review_status: before.reviewStatus },
        { review_status: after.reviewStatus, reject_reason: after.rejectReason },
      );
      return after;
    });
    // Once committed, the trader hears about it (NOTICE push).
    const notice = identityNotice(reviewed);
    if (notice) this.ctx.services.trading.accountNotices.publish(userId, notice);
    return this.detail(userId);
  }

  private async present(row: IdentityRow) {
    const uploads = this.ctx.services.uploads;
    return {
      review_status: row.reviewStatus,
      reject_reason: row.rejectReason ?? '',
      name: row.name,
      card_id: row.cardId,
      front_pic: await uploads.signedUrl(row.frontPic),
      reverse_pic: await uploads.signedUrl(row.reversePic),
    };
  }

  private async presentForStaff(row: IdentityRow, user: { uid: string; email: string | null; mobile: string | null }) {
    return {
      user_id: row.userId,
      uid: user.uid,
      email: user.email ?? '',
      mobile: user.mobile ?? '',
      ...(await this.present(row)),
      submitted_at: row.submittedAt.toISOString(),
      reviewed_at: row.reviewedAt?.toISOString() ?? null,
    };
  }
}
