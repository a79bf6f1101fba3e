/** A count of permits: at most `size` holders at once, the others wait in arrival order. */
export class Permits {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async with<T>(fn: () => Promise<T>): Promise<T> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.used++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    }
  }
}

interface Waiting<B> {
  batch: B;
  /** The context the batch was submitted in (e.g. the leader's epoch): only equal ones share a group. */
  scope: unknown;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface GroupCommitOptions<B> {
  /** Writes several batches in one transaction; all or nothing. */
  runGroup: (batches: B[]) => Promise<void>;
  /** Writes one batch alone (a group of one, or each batch again after its group failed). */
  runOne: (batch: B) => Promise<void>;
  /** Groups of one lane run one after the other; different lanes side by side. */
  laneOf: (batch: B) => number;
  lanes: number;
  maxGroup: number;
  /** Shared with the other transactions of the caller: a running group holds one permit. */
  permits: Permits;
  /** The submitting context, restored around the group's transaction. */
  scope?: () => unknown;
  enter?: <T>(scope: unknown, fn: () => Promise<T>) => Promise<T>;
  /** A group failed and its batches are retried alone. */
  onGroupFailed?: (err: unknown, size: number) => void;
  /** A transaction committed `size` batches (1: a batch alone). */
  onCommitted?: (size: number) => void;
}

/**
 * Group commit: batches submitted while their lane is busy (or within the same turn of the event
 * loop when it is idle) are written together, up to `maxGroup` of them in one transaction, the next
 * group as soon as the previous one committed. No batch waits for a window to fill: a lone batch
 * goes at once. Each batch stays all or nothing for its owner: a failed group is retried one batch
 * at a time, so one bad batch never fails the others.
 */
export class GroupCommit<B> {
  private readonly queues: Waiting<B>[][];
  private readonly busy: boolean[];

  constructor(private readonly opts: GroupCommitOptions<B>) {
    this.queues = Array.from({ length: opts.lanes }, () => []);
    this.busy = Array.from({ length: opts.lanes }, () => false);
  }

  submit(batch: B): Promise<void> {
    const lane = this.opts.laneOf(batch) % this.opts.lanes;
    return new Promise<void>((resolve, reject) => {
      this.queues[lane]!.push({ batch, scope: this.opts.scope?.(), resolve, reject });
      if (this.busy[lane]) return;
      this.busy[lane] = true;
      // The rest of this turn's batches (one tick crosses many users' levels) join the first group.
      setImmediate(() => void this.drain(lane));
    });
  }

  private async drain(lane: number): Promise<void> {
    const queue = this.queues[lane]!;
    while (queue.length) {
      const scope = queue[0]!.scope;
      const group: Waiting<B>[] = [];
      for (let i = 0; i < queue.length && group.length < this.opts.maxGroup;) {
        if (queue[i]!.scope === scope) group.push(...queue.splice(i, 1));
        else i++;
      }
      await this.opts.permits.with(() => this.write(group, scope));
    }
    this.busy[lane] = false;
  }

  private async write(group: Waiting<B>[], scope: unknown): Promise<void> {
    const enter = this.opts.enter ?? (<T>(_s: unknown, fn: () => Promise<T>) => fn());
    if (group.length > 1) {
      try {
        await enter(scope, () => this.opts.runGroup(group.map((w) => w.batch)));
        this.opts.onCommitted?.(group.length);
        for (const w of group) w.resolve();
        return;
      } catch (err) {
        this.opts.onGroupFailed?.(err, group.length);
      }
    }
    for (const w of group) {
      try {
        await enter(scope, () => this.opts.runOne(w.batch));
        this.opts.onCommitted?.(1);
        w.resolve();
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
