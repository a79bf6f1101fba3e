import { useMutation, useQueryClient } from '@tanstack/react-query';
import { draw } from '@tp/contract/endpoints/funding';
import { call } from '../../../lib/api-client';
import { refreshAccount } from '../../../api/refresh-account';
import { withdrawRecordsQueryKey } from './get-withdraw-records';

export interface WithdrawalInput {
  draw_currency_id: number;
  number: string;
  memo?: string;
  draw_method_id: number;
  /** The authenticator code, when the account has two-factor sign-in on. */
  totp?: string;
}

/** Requests a withdrawal (form): the amount leaves the free balance at once, pending review. */
export const submitWithdrawal = (input: WithdrawalInput) => call(draw, input, { loading: true, showSuccessMessage: true });

export function useSubmitWithdrawal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: submitWithdrawal,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: withdrawRecordsQueryKey });
      refreshAccount(client);
    },
  });
}
