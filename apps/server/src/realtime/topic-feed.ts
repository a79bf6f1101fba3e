/** A run of frames written as one buffer, and how many frames it holds. */
export interface FrameBatch {
  bytes: Buffer;
  frames: number;
}

/**
 * The newest frame of every key of one quote topic (DAY_MARKET: one per symbol; KLINE.{code}: one
 * per period), numbered by a sequence. A client remembers the sequence it has seen; at a flush it
 * gets the newest frame of each key that changed since, so a late client never gets a backlog.
 * Clients flushed together ask for the same range, so each range is built once and the same bytes
 * go to all of them.
 */
export class TopicFeed {
  private readonly latest = new Map<string, { frame: Buffer; seq: number }>();
  private seq = 0;
  /** Batches built since the last change, by the sequence they start after. */
  private readonly built = new Map<number, FrameBatch | null>();

  /** The sequence of the newest change. */
  get current(): number {
    return this.seq;
  }

  put(key: string, frame: Buffer): void {
    this.latest.set(key, { frame, seq: ++this.seq });
    this.built.clear();
  }

  /** The newest frame per key changed after `since`, in the order of the changes; null if none. */
  since(since: number): FrameBatch | null {
    if (since >= this.seq) return null;
    let batch = this.built.get(since);
    if (batch === undefined) {
      batch = this.build(since);
      this.built.set(since, batch);
    }
    return batch;
  }

  private build(since: number): FrameBatch | null {
    const changed: { frame: Buffer; seq: number }[] = [];
    for (const entry of this.latest.values()) if (entry.seq > since) changed.push(entry);
    if (!changed.length) return null;
    changed.sort((a, b) => a.seq - b.seq);
    return { bytes: changed.length === 1 ? changed[0]!.frame : Buffer.concat(changed.map((c) => c.frame)), frames: changed.length };
  }
}
