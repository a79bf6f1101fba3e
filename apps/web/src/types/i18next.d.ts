import 'i18next';
import type shell from '../locales/en.json';
import type markets from '../features/markets/locales/en.json';
import type trade from '../features/trade/locales/en.json';
import type orders from '../features/orders/locales/en.json';
import type auth from '../features/auth/locales/en.json';
import type account from '../features/account/locales/en.json';
import type funding from '../features/funding/locales/en.json';
import type identity from '../features/identity/locales/en.json';
import type news from '../features/news/locales/en.json';
import type rank from '../features/rank/locales/en.json';
import type support from '../features/support/locales/en.json';
import type admin from '../features/admin/locales/en.json';
import type statements from '../features/statements/locales/en.json';
import type partners from '../features/partners/locales/en.json';

/** Every key the app uses is checked against the English files: the shell's and each feature's. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof shell & {
        markets: typeof markets;
        trade: typeof trade;
        orders: typeof orders;
        auth: typeof auth;
        account: typeof account;
        funding: typeof funding;
        identity: typeof identity;
        news: typeof news;
        rank: typeof rank;
        support: typeof support;
        admin: typeof admin;
        statements: typeof statements;
        partners: typeof partners;
      };
    };
  }
}
