import { useMutation, useQueryClient } from '@tanstack/react-query';
import { submitCoinDeposit, submitWireDeposit } from '@tp/contract/endpoints/funding';
import { call } from '../../../lib/api-client';
import { depositRecordsQueryKey } from './get-deposit-records';

export type DepositInput =
  | { kind: 'coin'; number: string; proofImg: string; address: string; charge_id: number }
  | { kind: 'bank'; number: string; proofImg: string; wire_id: number };

/** Declares a coin or a bank wire deposit with its proof image; credited once staff approve it. */
export function submitDeposit(input: DepositInput) {
  const options = { loading: true, showSuccessMessage: true };
  if (input.kind === 'coin') {
    const { kind: _coin, ...body } = input;
    return call(submitCoinDeposit, body, options);
  }
  const { kind: _bank, ...body } = input;
  return call(submitWireDeposit, body, options);
}

export function useSubmitDeposit() {
  const client = useQueryClient();
  return useMutation({ mutationFn: submitDeposit, onSuccess: () => client.invalidateQueries({ queryKey: depositRecordsQueryKey }) });
}
