import { pushMessage } from '@tp/contract/pushes';
import type { ChatMessage } from '@tp/contract/schemas/support';
import type { AppContext, AuthStaff } from '../../context.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { findUserById } from '../auth/index.ts';
import { accountNotice } from '../trading/index.ts';
import * as repo from './repository.ts';
import type { ChatRow, ConversationRow, Sender } from './repository.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

const UPLOAD_URL = /^\/uploads\/([A-Za-z0-9][A-Za-z0-9_-]*(?:\/[A-Za-z0-9_-]+)*(?:\.[A-Za-z0-9]{1,8})?)$/;

const isoOf = (d: string | Date) => new Date(d).toISOString();

export const chatMessage = (r: Pick<ChatRow, 'id' | 'sender' | 'body' | 'imageUrl' | 'createdAt'>): ChatMessage => ({
  id: Number(r.id),
  sender: r.sender as Sender,
  body: r.body,
  image_url: r.imageUrl,
  created_at: isoOf(r.createdAt),
});

const conversation = (r: ConversationRow) => ({
  user_id: Number(r.user_id),
  uid: r.uid,
  email: r.email ?? '',
  mobile: r.mobile ?? '',
  is_demo: r.is_demo ? (1 as const) : (0 as const),
  unread: Number(r.unread),
  last_message: chatMessage({ id: r.id, sender: r.sender, body: r.body, imageUrl: r.image_url, createdAt: new Date(r.created_at) }),
});

interface Outgoing {
  body: string;
  image_url?: string;
}

/** Support chat between a user and the staff desk: stored first, then pushed to both sides. */
export class ChatService {
  constructor(private readonly ctx: AppContext) {
    // Each reply from support is in the trader's notifications.
    ctx.services.trading.accountNotices.addSource(async (userId, limit) => {
      const { rows, total } = await repo.staffReplies(ctx.db, userId, limit);
      return { rows: rows.map((r) => accountNotice('support_reply', r.createdAt)), total };
    });
  }

  async sendFromUser(userId: number, input: Outgoing): Promise<ChatMessage> {
    const { body, imageUrl } = await this.checked(input, userId);
    const row = await repo.insertMessage(this.ctx.db, { userId, sender: 'user', body, imageUrl, readByUser: true });
    return await this.publish(userId, row);
  }

  async sendFromStaff(staff: AuthStaff, userId: number, input: Outgoing): Promise<ChatMessage> {
    if (!(await findUserById(this.ctx.db, userId))) throw notFound('chat_user_not_found');
    const { body, imageUrl } = await this.checked(input, null);
    const row = await repo.insertMessage(this.ctx.db, { userId, sender: 'staff', staffId: staff.id, body, imageUrl, readByStaff: true });
    this.ctx.services.trading.accountNotices.publish(userId, accountNotice('support_reply', row.createdAt));
    return await this.publish(userId, row);
  }

  /** A page of the conversation (ascending); the reader's side marks the other side's messages read. */
  async history(userId: number, reader: Sender, page: { before_id?: number; limit: number }) {
    const [{ rows, hasMore }, total] = await Promise.all([
      repo.messagesBefore(this.ctx.db, userId, page.before_id, page.limit),
      repo.countMessages(this.ctx.db, userId),
    ]);
    if (rows.length) await repo.markRead(this.ctx.db, userId, reader, Number(rows[0]!.id));
    return { data: await Promise.all(rows.reverse().map((r) => this.signed(chatMessage(r)))), total, has_more: hasMore };
  }

  async unread(userId: number) {
    return { count: await repo.unreadByUser(this.ctx.db, userId) };
  }

  async conversations(page: { page: number; limit: number }) {
    const { rows, total } = await repo.conversations(this.ctx.db, page.limit, (page.page - 1) * page.limit);
    const data = await Promise.all(
      rows.map(async (r) => {
        const c = conversation(r);
        return { ...c, last_message: await this.signed(c.last_message) };
      }),
    );
    return { data, total };
  }

  private async checked(input: Outgoing, uploaderId: number | null): Promise<{ body: string; imageUrl: string | null }> {
    const body = input.body.trim();
    const imageUrl = input.image_url ? await this.checkedImage(input.image_url, uploaderId) : null;
    if (!body && !imageUrl) throw invalid('chat_empty');
    return { body, imageUrl };
  }

  /** Only our own upload URLs, of this user's uploads (any upload when staff send); stored without a query. */
  private async checkedImage(raw: string, uploaderId: number | null): Promise<string> {
    const path = raw.trim().split(/[?#]/)[0]!;
    const key = UPLOAD_URL.exec(path)?.[1];
    if (!key || !(await repo.uploadExists(this.ctx.db, key, uploaderId))) throw invalid('chat_image_invalid');
    return path;
  }

  /**
   * The message as sent to a reader: its stored image path becomes a signed URL (like identity
   * documents and deposit proofs), since an <img> tag carries no authorization header. Only the
   * conversation's own user and the staff desk are ever given a conversation's messages.
   */
  private async signed(message: ChatMessage): Promise<ChatMessage> {
    if (!message.image_url) return message;
    return { ...message, image_url: await this.ctx.services.uploads.signedUrl(message.image_url) };
  }

  private async publish(userId: number, row: ChatRow): Promise<ChatMessage> {
    const message = await this.signed(chatMessage(row));
    this.ctx.bus.publish(BusChannels.userChannel(userId), pushMessage('CHAT', { message }));
    // The support desk's feed: every stored chat message, with whose conversation it is.
    this.ctx.bus.publish(BusChannels.staffSupport, pushMessage('SUPPORT', { user_id: userId, message }));
    return message;
  }
}
