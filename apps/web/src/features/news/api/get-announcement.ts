import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Company } from '@tp/contract/schemas/content';
import { apiGet } from '../../../lib/api-client';

export interface Announcement {
  /** Translated by the server: the countries the service is not provided to. */
  announcement: string;
  excluded_countries: string[];
  /** Staff's own notice, plain text; may be empty. */
  notice: string;
  company: Company;
}

/** GET /api/default/announcement: the notice and the chosen (else main) company's data, in the current language. */
export const getAnnouncement = () => apiGet<Announcement>('/api/default/announcement', undefined, { showErrorMessage: false });

export const getAnnouncementQueryOptions = (lang: string) =>
  queryOptions({ queryKey: ['content', 'announcement', lang], queryFn: getAnnouncement });

export const useAnnouncement = (lang: string) => useQuery(getAnnouncementQueryOptions(lang));
