import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Logger } from 'pino';
import type { Db } from './db/client.ts';
import { type MessageChannel, type OutgoingMessage, OutboxChannel } from './outbox.ts';

/** Email through SMTP (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://...). */
export class SmtpMailer implements MessageChannel {
  readonly name = 'email' as const;
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(m: OutgoingMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text });
  }
}

export function createMailer(config: Config, db: Db, log: Logger): MessageChannel {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.SMTP_FROM);
  return new OutboxChannel('email', db, log, config.NODE_ENV === 'development');
}
