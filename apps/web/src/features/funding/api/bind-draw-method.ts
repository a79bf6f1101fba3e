import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bindDrawMethod as bindDrawMethodEndpoint } from '@tp/contract/endpoints/funding';
import type { InputOf } from '@tp/contract/endpoint';
import { call } from '../../../lib/api-client';
import { drawMethodsQueryKey } from './get-draw-methods';

export type BindDrawMethodInput = InputOf<typeof bindDrawMethodEndpoint>;

/** A coin address or a bank account for a withdrawal currency (form). */
export const bindDrawMethod = (input: BindDrawMethodInput) =>
  call(bindDrawMethodEndpoint, input, { loading: true, showSuccessMessage: true });

export function useBindDrawMethod() {
  const client = useQueryClient();
  return useMutation({ mutationFn: bindDrawMethod, onSuccess: () => client.invalidateQueries({ queryKey: drawMethodsQueryKey }) });
}
