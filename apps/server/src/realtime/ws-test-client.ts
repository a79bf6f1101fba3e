import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type DbTarget, type TestApp } from '../../test/test-app.ts';

export interface WsMessage {
  type?: string;
  [key: string]: any;
}

/** A socket client for tests: keeps every message and waits for the ones a test expects. */
export class TestClient {
  readonly messages: (WsMessage | string)[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      let parsed: WsMessage | string = text;
      try {
        parsed = JSON.parse(text) as WsMessage;
      } catch {
        // text frames such as "pong"
      }
      this.messages.push(parsed);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  static connect(url: string): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new TestClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits for the first message (after `from`) matching `match`. */
  async next(match: (m: WsMessage | string) => boolean, timeoutMs = 3000, from = 0): Promise<WsMessage | string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no matching socket message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a message and waits for the reply of type `replyType`. */
  async request(message: unknown, replyType: string): Promise<WsMessage> {
    const from = this.messages.length;
    this.send(message);
    return (await this.next((m) => typeof m === 'object' && m.type === replyType, 3000, from)) as WsMessage;
  }

  ofType(type: string, from = 0): WsMessage[] {
    return this.messages.slice(from).filter((m): m is WsMessage => typeof m === 'object' && m.type === type);
  }

  async waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket not closed');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  close() {
    this.ws.terminate();
  }
}

/**
 * For a test file's `describe`: an app listening on a free port, with its socket URL, and every
 * client connected through `connect` closed after the file.
 */
export function useLiveGateway(target: DbTarget, env: Record<string, string>) {
  let app: TestApp | undefined;
  let url = '';
  const clients: TestClient[] = [];
  beforeAll(async () => {
    app = await createTestApp(target, env);
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app?.close();
  });
  return {
    get t(): TestApp {
      return app!;
    },
    /** `query` replaces the URL's query (`?lang=en` by default), e.g. '' to send no language. */
    async connect(query?: string): Promise<TestClient> {
      const c = await TestClient.connect(query === undefined ? url : url.replace(/\?.*$/, query));
      clients.push(c);
      return c;
    },
  };
}
