import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Event-loop delay as the benchmarks report it: how late the sampling timer fired, beyond its own
 * period. `monitorEventLoopDelay` records the whole interval between two firings, so an idle loop
 * reads about `resolution` (10.1 ms at p50 with the default 10 ms, measured on this machine); the
 * period is taken off each figure, as @fastify/under-pressure does for its mean.
 */
export function loopDelayMonitor(resolution: number) {
  const histogram = monitorEventLoopDelay({ resolution });
  const late = (ns: number) => Math.max(0, ns / 1e6 - resolution);
  return {
    enable: () => histogram.enable(),
    disable: () => histogram.disable(),
    /** p50, p99 and max in ms since the last read (or enable); starts a new window. */
    read() {
      const figures = { p50: late(histogram.percentile(50)), p99: late(histogram.percentile(99)), max: late(histogram.max) };
      histogram.reset();
      return figures;
    },
  };
}
