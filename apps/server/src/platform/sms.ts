import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from './db/client.ts';
import { type MessageChannel, type OutgoingMessage, OutboxChannel } from './outbox.ts';

const TIMEOUT_MS = 10_000;

/**
 * A generic SMS provider adapter: POST SMS_URL with JSON {to, text} and the key in the
 * authorization header (`Bearer SMS_KEY`). Any 2xx answer counts as accepted.
 */
export class HttpSms implements MessageChannel {
  readonly name = 'sms' as const;

  constructor(
    private readonly url: string,
    private readonly key: string | undefined,
  ) {}

  async send(m: OutgoingMessage): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.key ? { authorization: `Bearer ${this.key}` } : {}) },
      body: JSON.stringify({ to: m.to, text: m.text }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`sms provider answered HTTP ${res.status}`);
  }
}

export function createSms(config: Config, db: Db, log: Logger): MessageChannel {
  if (config.SMS_URL) return new HttpSms(config.SMS_URL, config.SMS_KEY);
  return new OutboxChannel('sms', db, log, config.NODE_ENV === 'development');
}
