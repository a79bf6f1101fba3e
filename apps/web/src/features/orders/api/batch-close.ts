import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InputOf, OutputOf } from '@tp/contract/endpoint';
import { batchCloseByType } from '@tp/contract/endpoints/trading';
import { refreshAccount } from '../../../api/refresh-account';
import { call } from '../../../lib/api-client';

export type BatchCloseInput = InputOf<typeof batchCloseByType>;
export type BatchCloseResult = OutputOf<typeof batchCloseByType>;

/** Closes all positions (type 0), all buys (1) or all sells (2), of one symbol or of all. */
export const batchClose = (input: BatchCloseInput) => call(batchCloseByType, input);

export function useBatchClose() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: batchClose, onSettled: () => refreshAccount(queryClient) });
}
