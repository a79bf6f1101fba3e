import type { Socket } from 'node:net';
import WebSocket from 'ws';
import type { LangCode } from '@tp/contract/languages';
import type { AuthStaff, AuthUser } from '../context.ts';
import type { TopicFeed } from './topic-feed.ts';

/** Close codes: 1013 "try again later" for a client that cannot keep up, 1008 for refused connections. */
export const CLOSE_TOO_SLOW = 1013;
export const CLOSE_POLICY = 1008;

const NOTHING = { frames: 0, bytes: 0 };

/**
 * One socket client. For each quote topic it remembers the feed sequence it has been sent up to;
 * a flush sends the newest frame of whatever changed since, so quotes coalesce per symbol (and
 * period) for a client that falls behind, and nothing piles up.
 */
export class ClientConnection {
  readonly subscriptions = new Set<string>();
  /** Quote topics and the feed sequence this client has received up to. */
  private readonly feeds = new Map<TopicFeed, number>();
  user: AuthUser | null = null;
  /** A staff member logged in with a staff token (support desk). */
  staff: AuthStaff | null = null;
  lastSeen = Date.now();
  /** When the flush passes last checked the session expiry and the idle timeout. */
  checkedAt = 0;
  /** When the socket's send buffer first stayed above the limit; 0 while it keeps up. */
  slowSince = 0;
  dropping = false;
  /** Messages are handled one after another, so a `sub` after a `login` sees the login. */
  queue: Promise<void> = Promise.resolve();
  /** An account snapshot held back while the client is backed up (newest wins). */
  heldTrade: Buffer | null = null;
  /** While a replay reads the journal: the user's live pushes with a seq, held to follow the replayed ones. */
  replayHeld: { seq: number; frame: Buffer }[] | null = null;
  /** Messages received and not yet handled. */
  pending = 0;
  failedLogins = 0;
  /** The client's address as the app determines it (trust-proxy), for an API key's allow-list. */
  address?: string;
  /** The message budget: a bucket of `2 × rate` tokens refilled at `rate` per second. */
  private tokens = -1;
  private refilledAt = 0;

  constructor(
    readonly ws: WebSocket,
    private readonly socket: Socket,
    readonly ip: string,
    readonly lang: LangCode,
  ) {}

  /** Takes one message from the budget; false when the client has sent more than its rate allows. */
  takeMessage(now: number, perSecond: number): boolean {
    const capacity = perSecond * 2;
    if (this.tokens < 0) this.tokens = capacity;
    else this.tokens = Math.min(capacity, this.tokens + ((now - this.refilledAt) * perSecond) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  get isOpen(): boolean {
    return !this.dropping && this.ws.readyState === WebSocket.OPEN;
  }

  /** Bytes written but not yet accepted by the operating system. */
  get buffered(): number {
    return this.socket.writableLength;
  }

  /** Sends a frame now: replies and user pushes. */
  write(frame: Buffer): void {
    if (this.isOpen) this.socket.write(frame);
  }

  /** Starts a quote topic from sequence 0: the first flush sends the newest frame of every key. */
  follow(feed: TopicFeed): void {
    this.feeds.set(feed, 0);
  }

  unfollow(feed: TopicFeed): void {
    this.feeds.delete(feed);
  }

  /**
   * Writes what changed in the followed topics (and a held account snapshot) in one system call;
   * returns the frames and bytes written.
   */
  flush(): { frames: number; bytes: number } {
    if (!this.isOpen) return NOTHING;
    let first: Buffer | null = null;
    let rest: Buffer[] | null = null;
    let frames = 0;
    for (const [feed, seen] of this.feeds) {
      const batch = feed.since(seen);
      if (!batch) continue;
      if (first) (rest ??= [first]).push(batch.bytes);
      else first = batch.bytes;
      frames += batch.frames;
      this.feeds.set(feed, feed.current);
    }
    if (this.heldTrade) {
      if (first) (rest ??= [first]).push(this.heldTrade);
      else first = this.heldTrade;
      this.heldTrade = null;
      frames++;
    }
    if (!first) return NOTHING;
    if (!rest) {
      this.socket.write(first);
      return { frames, bytes: first.length };
    }
    // Corked writes leave as one writev: one system call, and the shared batches are not copied per client.
    let bytes = 0;
    this.socket.cork();
    for (const b of rest) {
      this.socket.write(b);
      bytes += b.length;
    }
    this.socket.uncork();
    return { frames, bytes };
  }
}
