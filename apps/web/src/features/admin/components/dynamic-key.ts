import type en from '../locales/en.json';

type Leaves<T> = { [K in keyof T & string]: T[K] extends string ? K : `${K}.${Leaves<T[K]>}` }[keyof T & string];
export type AdminKey = `admin.${Leaves<typeof en>}`;

/** A translation key built at run time from a status, a role or a field name (all present in en.json). */
export const adminKey = (key: string): AdminKey => key as AdminKey;
