/**
 * The bus between producers (price feed, engine, support) and the websocket gateways.
 * In-process by default; a Redis pub/sub implementation carries it across servers.
 */
export type BusHandler = (message: unknown) => void;

/** Whether the bus can carry messages now (readiness): Redis connections' states, or in-process. */
export interface BusState {
  kind: 'memory' | 'redis';
  connected: boolean;
  detail?: Record<string, string>;
}

export interface Bus {
  publish(channel: string, message: unknown): void;
  subscribe(channel: string, handler: BusHandler): () => void;
  state?(): BusState;
  /** Whether the carrier answers within `timeoutMs` (absent: in-process, always). */
  ping?(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryBus implements Bus {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  publish(channel: string, message: unknown): void {
    const set = this.handlers.get(channel);
    if (!set) return;
    for (const h of set) h(message);
  }

  subscribe(channel: string, handler: BusHandler): () => void {
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(channel);
    };
  }

  state(): BusState {
    return { kind: 'memory', connected: true };
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
