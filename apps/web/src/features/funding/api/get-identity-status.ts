import { useQuery } from '@tanstack/react-query';
import { identityCenter } from '@tp/contract/endpoints/identity';
import { call, queryKey } from '../../../lib/api-client';

/** The user's identity review status (2 verified), as the withdrawal form checks it; shares the identity page's query. */
export const useIdentityStatus = (enabled = true) =>
  useQuery({
    queryKey: queryKey(identityCenter),
    queryFn: ({ signal }) => call(identityCenter, undefined, { signal, showErrorMessage: false }),
    staleTime: 0,
    enabled,
  });
