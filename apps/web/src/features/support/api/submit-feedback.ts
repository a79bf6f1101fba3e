import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

export interface FeedbackInput {
  content: string;
  contact: string;
}

/** POST /api/feedback/submit: stored for staff; open to guests and users. */
export const submitFeedback = (input: FeedbackInput) => apiPost<{ id: number }>('/api/feedback/submit', input, { loading: true });

export const useSubmitFeedback = () => useMutation({ mutationFn: submitFeedback });
