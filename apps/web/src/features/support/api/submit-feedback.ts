import { useMutation } from '@tanstack/react-query';
import { submitFeedback as submitFeedbackEndpoint } from '@tp/contract/endpoints/support';
import { call } from '../../../lib/api-client';

export interface FeedbackInput {
  content: string;
  contact: string;
}

/** Stored for staff; open to guests and users. */
export const submitFeedback = (input: FeedbackInput) => call(submitFeedbackEndpoint, input, { loading: true });

export const useSubmitFeedback = () => useMutation({ mutationFn: submitFeedback });
