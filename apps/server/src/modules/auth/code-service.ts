import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { RESEND_CODE_COUNTDOWN_S } from '@tp/contract/constants';
import { CodePurpose } from '@tp/contract/schemas/auth';
import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { t } from '../../http/i18n.ts';
import { createMailer } from '../../platform/mailer.ts';
import type { MessageChannel } from '../../platform/outbox.ts';
import { createSms } from '../../platform/sms.ts';
import { markCodeUsed, replaceCode, spendTry } from './code-repository.ts';
import type { Destination } from './destination.ts';
import { findUserByDestination } from './user-repository.ts';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_TRIES = 5;
const CODES_PER_HOUR = 10;

const hashCode = (destination: string, purpose: number, code: string) =>
  createHash('sha256').update(`${destination}|${purpose}|${code}`).digest();

/**
 * One-time codes sent by email or SMS: 6 digits from a secure source, stored hashed, valid 10
 * minutes, single use, dead after 5 tries, at most one per destination every 60 s.
 */
export class CodeService {
  private readonly channels: Record<'email' | 'sms', MessageChannel>;
  private readonly deliveries = new Set<Promise<void>>();
  now = () => new Date();

  constructor(private readonly ctx: AppContext) {
    this.channels = { email: createMailer(ctx.config, ctx.db, ctx.log), sms: createSms(ctx.config, ctx.db, ctx.log) };
  }

  /**
   * Sends a code unless the purpose cannot apply (registering an existing account, resetting an
   * unknown one). Both cases answer the same, after the same checks, and delivery happens in the
   * background either way, so the caller learns nothing about which accounts exist.
   */
  async send(dest: Destination, purpose: number, lang: string): Promise<void> {
    const wait = await this.ctx.services.throttle.hit(`code:${dest.key}`, 1, RESEND_CODE_COUNTDOWN_S * 1000);
    if (!wait.allowed) throw fail('code_wait', { seconds: Math.max(1, Math.ceil(wait.retryAfterMs / 1000)) });
    const hourly = await this.ctx.services.throttle.hit(`code-hour:${dest.key}`, CODES_PER_HOUR, 3_600_000);
    if (!hourly.allowed) throw fail('code_limit');

    const exists = (await findUserByDestination(this.ctx.db, dest)) !== undefined;
    if (purpose === CodePurpose.REGISTER ? exists : !exists) return;

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.now();
    await replaceCode(
      this.ctx.db,
      {
        channel: dest.channel,
        destination: dest.key,
        purpose,
        codeHash: hashCode(dest.key, purpose, code).toString('hex'),
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      },
      now,
    );
    const subject = t(lang, purpose === CodePurpose.REGISTER ? 'code_subject_register' : 'code_subject_reset');
    const text = t(lang, 'code_body', { code, minutes: CODE_TTL_MS / 60_000 });
    this.deliver(this.channels[dest.channel], { to: dest.address, subject, text });
  }

  /** True once for the right code: the code is then used up. Wrong, expired, used or dead codes answer false. */
  async consume(dest: Destination, purpose: number, code: string): Promise<boolean> {
    const now = this.now();
    const live = await spendTry(this.ctx.db, { channel: dest.channel, destination: dest.key, purpose }, now, CODE_MAX_TRIES);
    if (!live) return false;
    const given = hashCode(dest.key, purpose, code.trim());
    if (!timingSafeEqual(given, Buffer.from(live.codeHash, 'hex'))) return false;
    return markCodeUsed(this.ctx.db, live.id, now);
  }

  /** A notice to an account's owner (not a code): delivered in the background like the codes. */
  notify(channel: 'email' | 'sms', to: string, subject: string, text: string): void {
    this.deliver(this.channels[channel], { to, subject, text });
  }

  /** Resolves when every message handed over so far has been delivered (or failed and been logged). */
  async settled(): Promise<void> {
    while (this.deliveries.size) await Promise.all([...this.deliveries]);
  }

  private deliver(channel: MessageChannel, message: { to: string; subject: string; text: string }) {
    const p = channel
      .send(message)
      .catch((err: unknown) => this.ctx.log.error({ err, channel: channel.name }, 'code delivery failed'))
      .finally(() => this.deliveries.delete(p));
    this.deliveries.add(p);
  }
}
