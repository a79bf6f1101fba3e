import { useMutation } from '@tanstack/react-query';
import { sendChatMessage as sendChatMessageEndpoint } from '@tp/contract/endpoints/support';
import { call } from '../../../lib/api-client';

export interface ChatSendInput {
  body: string;
  /** A URL from the image upload. */
  image_url?: string;
}

/** A text and/or one image to support; answered with the stored message. */
export const sendChatMessage = (input: ChatSendInput) => call(sendChatMessageEndpoint, input);

export const useSendChatMessage = () => useMutation({ mutationFn: sendChatMessage });
