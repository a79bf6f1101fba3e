import * as contract from '@tp/contract/schemas/support';
import type { ChatMessage } from '@tp/contract/schemas/support';
import { describe, expect, it } from 'vitest';
import { CHAT_BODY_MAX, CHAT_TOPIC, chatMessageOf, FEEDBACK_CONTACT_MAX, FEEDBACK_CONTENT_MAX, firstUnreadId, mergeMessages } from './chat-messages';

const msg = (id: number, sender: 'user' | 'staff', body = `m${id}`): ChatMessage => ({ id, sender, body, image_url: null, created_at: '2026-01-01T00:00:00.000Z' });

describe('chat messages', () => {
  it('agree with the contract limits and push type', () => {
    expect(CHAT_BODY_MAX).toBe(contract.CHAT_BODY_MAX);
    expect(FEEDBACK_CONTENT_MAX).toBe(contract.FEEDBACK_CONTENT_MAX);
    expect(FEEDBACK_CONTACT_MAX).toBe(contract.FEEDBACK_CONTACT_MAX);
    expect(CHAT_TOPIC).toBe(contract.CHAT_PUSH_TYPE);
  });

  it('merges overlapping lists once each, oldest first', () => {
    const merged = mergeMessages([msg(3, 'user'), msg(4, 'staff')], undefined, [msg(1, 'user'), msg(2, 'staff')], [msg(4, 'staff', 'newer'), msg(5, 'user')]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    expect(merged[3]!.body).toBe('newer');
  });

  it('puts the unread divider before the last unread staff replies', () => {
    const list = [msg(1, 'staff'), msg(2, 'user'), msg(3, 'staff'), msg(4, 'user'), msg(5, 'staff')];
    expect(firstUnreadId(list, 0)).toBeNull();
    expect(firstUnreadId(list, 1)).toBe(5);
    expect(firstUnreadId(list, 2)).toBe(3);
    expect(firstUnreadId(list, 9)).toBe(1);
    expect(firstUnreadId([msg(1, 'user')], 2)).toBeNull();
  });

  it('reads a message out of a CHAT push only', () => {
    expect(chatMessageOf({ type: 'CHAT', message: msg(7, 'staff') })).toEqual(msg(7, 'staff'));
    expect(chatMessageOf({ type: 'FOREX_TRADE', message: msg(7, 'staff') })).toBeNull();
    expect(chatMessageOf({ type: 'CHAT', message: { id: 'x' } })).toBeNull();
    expect(chatMessageOf({ type: 'CHAT' })).toBeNull();
  });
});
