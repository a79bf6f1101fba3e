import { Code, type Envelope } from '@tp/contract/codes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/toast-store';
import { currentLang, i18n } from '../../../lib/i18n';
import type { AdminKey } from '../components/dynamic-key';
import { useStaffSession } from '../../../lib/staff-session-store';

export type Params = Record<string, string | number | boolean | null | undefined>;

/** A refused staff call: the envelope code and its translated message. */
export class StaffApiError extends Error {
  constructor(
    readonly code: number | string,
    message: string,
    /** What the server sent with the refusal (the TOTP setup of a first sign-in). */
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

const clean = (params: Params = {}) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)]));

/** Calls /api/admin/... with the staff token (never the trader's); 999 ends the staff session. */
export async function staffRequest<T>(method: 'GET' | 'POST', path: string, params?: Params, opts: { quiet?: boolean } = {}): Promise<T> {
  const token = useStaffSession.getState().token;
  const headers: Record<string, string> = { lang: currentLang() };
  if (token) headers.authorization = token;
  let url = path;
  let body: string | undefined;
  if (method === 'GET') {
    url += `?${new URLSearchParams({ ...clean(params), t: String(Date.now()) })}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(params ?? {});
  }
  let envelope: Envelope<T>;
  try {
    const res = await fetch(url, { method, headers, body });
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    const message = i18n.t('errors.network', { code: 'ERR_NETWORK' });
    toast(message, 'error');
    throw new StaffApiError('ERR_NETWORK', message);
  }
  if (envelope.code === Code.SUCCESS) return envelope.data;
  if (envelope.code === Code.SESSION_EXPIRED) useStaffSession.getState().signOut();
  if (!opts.quiet) toast(envelope.msg, 'error');
  throw new StaffApiError(envelope.code, envelope.msg, envelope.data);
}

export interface Page<T> {
  data: T[];
  total: number;
}

/** A GET of the back office, cached per path and parameters. */
export function useStaffQuery<T>(path: string, params: Params = {}, enabled = true) {
  return useQuery({ queryKey: ['admin', path, params], queryFn: () => staffRequest<T>('GET', path, params, { quiet: true }), enabled, staleTime: 0 });
}

/** A POST of the back office; refreshes every back office query when it succeeds. */
export function useStaffMutation<T = unknown, P extends Record<string, unknown> = Record<string, unknown>>(path: string, successMessage: AdminKey = 'admin.saved') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: P) => staffRequest<T>('POST', path, params as Params),
    onSuccess: () => {
      toast(i18n.t(successMessage), 'success');
      return queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}
