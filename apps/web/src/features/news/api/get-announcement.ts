import { queryOptions, useQuery } from '@tanstack/react-query';
import { announcement } from '@tp/contract/endpoints/content';
import type { OutputOf } from '@tp/contract/endpoint';
import { call, queryKey } from '../../../lib/api-client';

/** The translated notice of excluded countries, staff's own notice and the chosen company's data. */
export type Announcement = OutputOf<typeof announcement>;

/** The notice and the chosen (else main) company's data, in the current language. */
export const getAnnouncement = () => call(announcement, {}, { showErrorMessage: false });

/** Every language's entry: the company chosen (a cookie, not an input) changes them all. */
export const announcementQueryKey = queryKey(announcement);

/** The answer is translated: one cache entry per language. */
export const getAnnouncementQueryOptions = (lang: string) =>
  queryOptions({ queryKey: [...announcementQueryKey, { lang }], queryFn: getAnnouncement });

export const useAnnouncement = (lang: string) => useQuery(getAnnouncementQueryOptions(lang));
