import type { Logger } from 'pino';
import type { Db } from './db/client.ts';
import { outbox } from './db/platform-schema.ts';

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends one kind of message (email, SMS) through whatever delivers it. */
export interface MessageChannel {
  readonly name: 'email' | 'sms';
  send(message: OutgoingMessage): Promise<void>;
}

/** Without a provider, messages are kept in the outbox table for the back office (and logged in development). */
export class OutboxChannel implements MessageChannel {
  constructor(
    readonly name: 'email' | 'sms',
    private readonly db: Db,
    private readonly log: Logger,
    private readonly logBodies: boolean,
  ) {}

  async send(m: OutgoingMessage): Promise<void> {
    await this.db.insert(outbox).values({ channel: this.name, destination: m.to, subject: m.subject, body: m.text });
    if (this.logBodies)
      this.log.info({ channel: this.name, to: m.to, subject: m.subject, body: m.text }, 'outbox message (no provider configured)');
  }
}
