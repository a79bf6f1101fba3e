import { useMutation } from '@tanstack/react-query';
import type { ChatMessage } from '@tp/contract/schemas/support';
import { apiPost } from '../../../lib/api-client';

export interface ChatSendInput {
  body: string;
  /** A URL from POST /api/common/image_upload. */
  image_url?: string;
}

/** POST /api/support/send: a text and/or one image to support; answered with the stored message. */
export const sendChatMessage = (input: ChatSendInput) => apiPost<ChatMessage>('/api/support/send', input);

export const useSendChatMessage = () => useMutation({ mutationFn: sendChatMessage });
