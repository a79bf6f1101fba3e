/**
 * The engine's worker: jobs of one user run one after the other, in the order they were queued;
 * different users run side by side, up to `concurrency` at a time. Consecutive jobs of a user that
 * `joins` accepts together run as one batch (e.g. several take-profits crossed by one tick).
 */
export class UserJobQueue<J extends { userId: number }> {
  private readonly perUser = new Map<number, J[]>();
  private ready: number[] = [];
  private head = 0;
  private running = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly run: (jobs: J[]) => Promise<void>,
    private readonly concurrency: number,
    private readonly onError: (job: J, err: unknown) => void,
    private readonly joins: (first: J, next: J) => boolean = () => false,
  ) {}

  push(job: J): void {
    const queued = this.perUser.get(job.userId);
    if (queued) {
      queued.push(job);
      return;
    }
    this.perUser.set(job.userId, [job]);
    this.ready.push(job.userId);
    this.pump();
  }

  get size(): number {
    return this.perUser.size;
  }

  /** Resolves once every queued job has finished. */
  idle(): Promise<void> {
    if (!this.perUser.size && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.head < this.ready.length) {
      const userId = this.ready[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.ready.length) {
        this.ready = this.ready.slice(this.head);
        this.head = 0;
      }
      this.running++;
      void this.drain(userId).finally(() => {
        this.running--;
        this.pump();
        if (!this.perUser.size && !this.running) for (const w of this.waiters.splice(0)) w();
      });
    }
  }

  private async drain(userId: number): Promise<void> {
    const jobs = this.perUser.get(userId)!;
    // Start after the current task: jobs queued by the same tick are all there to be joined.
    await Promise.resolve();
    while (jobs.length) {
      let n = 1;
      while (n < jobs.length && this.joins(jobs[0]!, jobs[n]!)) n++;
      const batch = jobs.splice(0, n);
      try {
        await this.run(batch);
      } catch (err) {
        for (const job of batch) this.onError(job, err);
      }
    }
    this.perUser.delete(userId);
  }
}
