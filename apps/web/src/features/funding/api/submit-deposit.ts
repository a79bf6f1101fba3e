import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { depositRecordsQueryKey } from './get-deposit-records';

export type DepositInput =
  | { kind: 'coin'; number: string; proofImg: string; address: string; charge_id: number }
  | { kind: 'bank'; number: string; proofImg: string; wire_id: number };

/** POST /api/quickCharge/submit (coin) or /api/quickCharge/wire_submit (bank), with the proof image. */
export function submitDeposit(input: DepositInput) {
  const options = { loading: true, showSuccessMessage: true };
  if (input.kind === 'coin') {
    const { kind: _coin, ...body } = input;
    return apiPost<unknown>('/api/quickCharge/submit', body, options);
  }
  const { kind: _bank, ...body } = input;
  return apiPost<unknown>('/api/quickCharge/wire_submit', body, options);
}

export function useSubmitDeposit() {
  const client = useQueryClient();
  return useMutation({ mutationFn: submitDeposit, onSuccess: () => client.invalidateQueries({ queryKey: depositRecordsQueryKey }) });
}
