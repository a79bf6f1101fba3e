import { VerifyRegType } from '@tp/contract/constants';
import type { z } from 'zod';
import { EXCLUDED_COUNTRIES } from '@tp/contract/constants';
import {
  announcementKey,
  EDITABLE_SETTING_KEYS,
  TRANSLATED_LANGS,
  RISK_SETTING_KEYS,
  type CompanySaveInput,
  type EditableSettingKey,
  type NewsSaveInput,
} from '@tp/contract/schemas/content';
import { dec } from '@tp/contract/decimal';
import type { LangCode } from '@tp/contract/languages';
import { linkScheme } from '@tp/contract/links';
import type { AppContext, AuthStaff } from '../../context.ts';
import { forbidden, invalid, notFound } from '../../http/errors.ts';
import { t } from '../../http/i18n.ts';
import { sanitizeHtml } from './html-sanitizer.ts';
import * as repo from './repository.ts';
import type { CompanyRow, NewsRow, NewsTextRow, PageQuery } from './repository.ts';
import { BusChannels } from '../../platform/bus-channels.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type Applied, type ChangeKind, settingsChangePreview } from '../admin/index.ts';

type SettingsChange = Partial<Record<EditableSettingKey, string>>;

/** Published after staff change settings, so services caching them (trading, auth) reload. */
/** Published after staff change a company (the manifest cache listens). */
export const COMPANY_CHANGED_CHANNEL = 'company:changed';

const iso = (d: Date) => d.toISOString();

export const newsSummary = (r: Pick<NewsRow, 'id' | 'title' | 'desc' | 'logo' | 'createdAt'>) => ({
  id: r.id,
  title: r.title,
  desc: r.desc,
  logo: r.logo,
  created_at: iso(r.createdAt),
});
/** Content is sanitized again on the way out: a row written by any other path is still harmless. */
export const newsDetail = (r: NewsRow) => ({ ...newsSummary(r), content: sanitizeHtml(r.content) });
const adminNews = (r: NewsRow, texts: NewsTextRow[]) => ({
  ...newsDetail(r),
  category_id: r.categoryId,
  published: r.published,
  translations: Object.fromEntries(texts.map((x) => [x.lang, { title: x.title, desc: x.desc, content: sanitizeHtml(x.content) }])),
});

export const publicCompany = (c: CompanyRow) => ({
  id: c.id,
  name: c.name,
  logo: c.logo,
  url: c.url,
  subject: c.subject,
  registered_address: c.registeredAddress,
  location: c.location,
  email: c.email,
});
const adminCompany = (c: CompanyRow) => ({ ...publicCompany(c), status: c.status, loss_url: c.lossUrl, is_main: c.isMain });

const pageQuery = (p: { page: number; limit: number }): PageQuery => ({ limit: p.limit, offset: (p.page - 1) * p.limit });

const countryKey = (name: string) => `country_${name.toLowerCase().replace(/\s+/g, '_')}`;

export class ContentService {
  constructor(private readonly ctx: AppContext) {}

  // ---------------------------------------------------------------- news
  /** Published news in the reader's language (English where staff left that language empty). */
  async newsList(input: { category_id: number; page: number; limit: number }, lang: LangCode) {
    const { rows, total } = await repo.listNews(
      this.ctx.db,
      { categoryId: input.category_id, publishedOnly: true, lang },
      pageQuery(input),
    );
    return { data: rows.map(newsSummary), total };
  }

  async newsInfo(id: number, lang: LangCode) {
    const row = await repo.findLocalizedNews(this.ctx.db, id, lang);
    if (!row) throw notFound('news_not_found');
    return newsDetail(row);
  }

  /** Staff see the English text, the reference each language is translated from. */
  async adminNewsList(input: { category_id?: number; page: number; limit: number }) {
    const { rows, total } = await repo.listNews(
      this.ctx.db,
      { categoryId: input.category_id, publishedOnly: false, lang: 'en' },
      pageQuery(input),
    );
    return { data: rows.map((r) => ({ ...newsSummary(r), category_id: r.categoryId, published: r.published })), total };
  }

  async adminNewsInfo(id: number) {
    const row = await repo.findNews(this.ctx.db, id, false);
    if (!row) throw notFound('news_not_found');
    return adminNews(row, await repo.listNewsTexts(this.ctx.db, id));
  }

  async saveNews(staff: AuthStaff, input: z.infer<typeof NewsSaveInput>) {
    const values = {
      categoryId: input.category_id,
      title: input.title,
      desc: input.desc,
      logo: input.logo,
      content: sanitizeHtml(input.content),
      published: input.published,
    };
    if (!values.content.trim()) throw invalid('news_content_required');
    // Each language's HTML is sanitized like the English one; a body that sanitizes to nothing counts as empty (served in English).
    const texts = TRANSLATED_LANGS.flatMap((lang) => {
      const x = input.translations[lang];
      if (!x) return [];
      const content = sanitizeHtml(x.content);
      return [{ lang, title: x.title, desc: x.desc, content: content.trim() ? content : '' }];
    });
    await this.checkHttpLinks([values.logo]);
    const saved = await this.ctx.db.transaction(async (tx) => {
      const before = input.id ? await repo.findNews(tx, input.id, false) : undefined;
      if (input.id && !before) throw notFound('news_not_found');
      const beforeTexts = input.id ? await repo.listNewsTexts(tx, input.id) : [];
      const row = input.id ? (await repo.updateNews(tx, input.id, values))! : await repo.insertNews(tx, values);
      await repo.replaceNewsTexts(tx, row.id, texts);
      const afterTexts = await repo.listNewsTexts(tx, row.id);
      await this.ctx.services.staff.audit(
        tx,
        staff,
        input.id ? 'news.update' : 'news.create',
        { type: 'news', id: row.id },
        before ? { ...before, translations: beforeTexts } : null,
        { ...row, translations: afterTexts },
      );
      return { row, texts: afterTexts };
    });
    return adminNews(saved.row, saved.texts);
  }

  async deleteNews(staff: AuthStaff, id: number) {
    await this.ctx.db.transaction(async (tx) => {
      const removed = await repo.deleteNews(tx, id);
      if (!removed) throw notFound('news_not_found');
      await this.ctx.services.staff.audit(tx, staff, 'news.delete', { type: 'news', id }, removed, null);
    });
  }

  // ---------------------------------------------------------------- company
  /** The company asked for, else the main one (an unknown id falls back to the main company). */
  async company(id?: number): Promise<CompanyRow> {
    const row = (id ? await repo.findCompany(this.ctx.db, id) : undefined) ?? (await repo.findMainCompany(this.ctx.db));
    if (!row) throw notFound('company_not_found');
    return row;
  }

  async companyExists(id: number): Promise<boolean> {
    return !!(await repo.findCompany(this.ctx.db, id));
  }

  async searchCompanies(input: { name: string; page: number; limit: number }) {
    const { rows, total } = await repo.searchCompanies(this.ctx.db, input.name, pageQuery(input));
    return { data: rows.map(publicCompany), total };
  }

  /** The back office's list: the public fields plus status, loss_url and the main flag. */
  async staffCompanyList(input: { name: string; page: number; limit: number }) {
    const { rows, total } = await repo.searchCompanies(this.ctx.db, input.name, pageQuery(input));
    return { data: rows.map(adminCompany), total };
  }

  async companyStatus(id?: number) {
    const c = await this.company(id);
    return { status: c.status, loss_url: c.lossUrl };
  }

  async supportEmail(id?: number) {
    return { email: (await this.company(id)).email };
  }

  /** The notice in `lang`, else the English one (`announcement`) where staff left that language empty. */
  async announcement(lang: LangCode, companyId?: number) {
    const key = lang === 'en' ? 'announcement' : announcementKey(lang);
    const [company, stored] = await Promise.all([this.company(companyId), repo.readSettings(this.ctx.db, ['announcement', key])]);
    return {
      announcement: t(lang, 'announcement_text'),
      excluded_countries: EXCLUDED_COUNTRIES.map((c) => t(lang, countryKey(c))),
      notice: stored[key]?.trim() ? stored[key] : (stored.announcement ?? ''),
      company: publicCompany(company),
    };
  }

  async saveCompany(staff: AuthStaff, input: z.infer<typeof CompanySaveInput>) {
    const values = {
      name: input.name,
      logo: input.logo,
      url: input.url,
      subject: input.subject,
      registeredAddress: input.registered_address,
      location: input.location,
      email: input.email,
      status: input.status,
      lossUrl: input.loss_url,
      isMain: input.is_main,
    };
    if (values.status !== 0 && !values.lossUrl) throw invalid('company_loss_url_required');
    await this.checkHttpLinks([values.logo, values.url, values.lossUrl]);
    const saved = await this.ctx.db.transaction(async (tx) => {
      const before = input.id ? await repo.findCompany(tx, input.id) : undefined;
      if (input.id && !before) throw notFound('company_not_found');
      // The main company stays main until another one is made main.
      if (before?.isMain && !values.isMain) throw invalid('company_main_required');
      const row = input.id ? (await repo.updateCompany(tx, input.id, values))! : await repo.insertCompany(tx, values);
      if (row.isMain) await repo.clearMainExcept(tx, row.id);
      await this.ctx.services.staff.audit(
        tx,
        staff,
        input.id ? 'company.update' : 'company.create',
        { type: 'company', id: row.id },
        before ?? null,
        row,
      );
      return row;
    });
    this.ctx.bus.publish(COMPANY_CHANGED_CHANNEL, { id: saved.id });
    return adminCompany(saved);
  }

  // ---------------------------------------------------------------- settings
  /** The schema let only https, http, mailto and relative links through; http needs staff's allow_http_links. */
  private async checkHttpLinks(links: string[]) {
    if (!links.some((l) => linkScheme(l) === 'http')) return;
    const { allow_http_links } = await repo.readSettings(this.ctx.db, ['allow_http_links']);
    if (allow_http_links !== '1') throw invalid('url_http_not_allowed');
  }

  async editableSettings(): Promise<Record<string, string>> {
    return repo.readSettings(this.ctx.db, EDITABLE_SETTING_KEYS);
  }

  /**
   * Saves a subset of the editable settings; each key needs its role (admin may change all). With
   * four-eyes on, a save holding a risk level (margin call, stop-out) is proposed whole instead.
   */
  async saveSettings(staff: AuthStaff, input: Record<string, unknown>): Promise<Record<string, string> | { pending_change_id: number }> {
    const changes: Partial<Record<EditableSettingKey, string>> = {};
    for (const [key, value] of Object.entries(input)) {
      if (key === 't' || value === undefined) continue;
      if (!(EDITABLE_SETTING_KEYS as readonly string[]).includes(key)) throw invalid('setting_not_editable', { key });
      const role = (RISK_SETTING_KEYS as readonly string[]).includes(key) ? 'risk' : 'content';
      if (!staff.roles.includes('admin') && !staff.roles.includes(role)) throw forbidden('setting_role_required');
      // Captcha-only registration lets anyone open accounts without owning an address: an admin decision.
      if (key === 'verify_reg_type' && String(value) === String(VerifyRegType.CAPTCHA) && !staff.roles.includes('admin'))
        throw forbidden('setting_role_required');
      changes[key as EditableSettingKey] = String(value);
    }
    if (!Object.keys(changes).length) throw invalid('settings_nothing_to_save');
    const changesService = this.ctx.services.changes;
    if (changesService.enabled && RISK_SETTING_KEYS.some((k) => changes[k] !== undefined))
      return { pending_change_id: await changesService.propose('settings', staff, changes) };
    return changesService.save<SettingsChange, Record<string, string>>('settings', staff, changes);
  }

  /** The settings kind of change: one way in for a direct save and an approval (roles are the proposer's, checked above). */
  readonly settingsChange: ChangeKind<SettingsChange, Record<string, string>> = {
    apply: (tx, staff, changes) => this.applySettings(tx, staff, changes),
    settle: async (changes) => {
      this.ctx.bus.publish(BusChannels.settingsChanged, { keys: Object.keys(changes), values: changes });
    },
    preview: (changes) => settingsChangePreview(this.ctx, changes),
  };

  private async applySettings(tx: DbOrTx, staff: AuthStaff, changes: SettingsChange): Promise<Applied<Record<string, string>>> {
    const keys = Object.keys(changes) as EditableSettingKey[];
    const before = await repo.readSettings(tx, EDITABLE_SETTING_KEYS);
    const after = { ...before, ...changes };
    if (changes.service_link && linkScheme(changes.service_link) === 'http' && after.allow_http_links !== '1')
      throw invalid('url_http_not_allowed');
    if (after.margin_call_level && after.stop_out_level && !dec(after.stop_out_level).lt(dec(after.margin_call_level))) {
      throw invalid('stop_out_above_margin_call');
    }
    for (const key of keys) await repo.writeSetting(tx, key, changes[key]!);
    const changedBefore = Object.fromEntries(keys.map((k) => [k, before[k] ?? null]));
    await this.ctx.services.staff.audit(tx, staff, 'settings.save', { type: 'settings', id: keys.join(',') }, changedBefore, changes);
    return {
      result: await repo.readSettings(tx, EDITABLE_SETTING_KEYS),
      target: keys.join(','),
      label: keys.join(', '),
      before: changedBefore,
      after: { ...changes },
    };
  }
}
