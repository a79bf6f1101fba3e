import { FeedbackStatus } from '@tp/contract/schemas/support';
import type { AppContext, AuthStaff } from '../../context.ts';
import { fail, notFound } from '../../http/errors.ts';
import * as repo from './repository.ts';
import type { FeedbackRow } from './repository.ts';

const feedbackItem = (r: FeedbackRow, user: { uid: string | null; email: string | null }) => ({
  id: r.id,
  user_id: r.userId,
  uid: user.uid ?? '',
  email: user.email ?? '',
  contact: r.contact,
  content: r.content,
  status: r.status,
  created_at: r.createdAt.toISOString(),
});

/** Feedback from the /feedback form (visitors or users), read and resolved by the support desk. */
export class FeedbackService {
  constructor(private readonly ctx: AppContext) {}

  async submit(userId: number | null, input: { content: string; contact: string }) {
    const row = await repo.insertFeedback(this.ctx.db, { userId, content: input.content, contact: input.contact });
    return { id: row.id };
  }

  async list(input: { status?: number; page: number; limit: number }) {
    const { rows, total } = await repo.listFeedback(this.ctx.db, input.status, input.limit, (input.page - 1) * input.limit);
    return { data: rows.map((r) => feedbackItem(r.row, r)), total };
  }

  async resolve(staff: AuthStaff, id: number) {
    return this.ctx.db.transaction(async (tx) => {
      const row = await repo.changeFeedbackStatus(tx, id, FeedbackStatus.OPEN, FeedbackStatus.RESOLVED);
      if (!row) {
        if (!(await repo.findFeedback(tx, id))) throw notFound('feedback_not_found');
        throw fail('feedback_already_resolved');
      }
      await this.ctx.services.staff.audit(
        tx,
        staff,
        'feedback.resolve',
        { type: 'feedback', id },
        { status: FeedbackStatus.OPEN },
        { status: row.status },
      );
      return { id: row.id, status: row.status };
    });
  }
}
