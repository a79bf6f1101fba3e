/**
 * Where the web app's main thread goes on a slow phone: loads a route in Debian Chromium with the CPU
 * throttled 4x (as Lighthouse's mobile preset), records a JavaScript CPU profile (CDP Profiler) and the
 * long tasks, and prints the functions with the most self time, in two windows: the boot (until the
 * page has been quiet on the network for a moment) and a steady state with live quotes ticking, where
 * a Chrome trace also splits the main thread by kind (script, style, layout, paint).
 *
 *   npm run bench:web-profile                       # / and /trade?symbol=BTCUSDT, 5 s of steady state
 *   ROUTES=/ STEADY_MS=10000 TOP=25 npx tsx bench/web-profile.ts
 *   WEB_DIST=/tmp/other-build npx tsx bench/web-profile.ts   # profile another build of apps/web
 *
 * Figures are milliseconds of the throttled main thread; on a shared machine compare runs made under
 * the same load (the load average is printed).
 */
import os from 'node:os';
import path from 'node:path';
import type net from 'node:net';
import { chromium, type CDPSession } from 'playwright-core';
import { createTestApp } from '../apps/server/test/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = process.env.WEB_DIST ?? path.join(ROOT, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUTES = (process.env.ROUTES ?? '/,/trade?symbol=BTCUSDT').split(',');
const STEADY_MS = Number(process.env.STEADY_MS ?? 5000);
const TOP = Number(process.env.TOP ?? 15);
const CPU_RATE = Number(process.env.CPU_RATE ?? 4);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function (ms) and the busy total, idle and program (native, GC) samples set apart. */
function selfTimes(profile: Profile): { rows: [string, number][]; busy: number; total: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const times = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busy = 0;
  for (let i = 0; i < samples.length; i++) {
    // A sample's duration is the delta to the next sample.
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const node = byId.get(samples[i]!);
    if (!node) continue;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    busy += ms;
    const file = url ? url.replace(/^https?:\/\/[^/]+\//, '').replace(/-[\w-]{8}\.js$/, '.js') : '';
    const key = file ? `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}` : functionName;
    times.set(key, (times.get(key) ?? 0) + ms);
  }
  const rows = [...times].sort((a, b) => b[1] - a[1]);
  return { rows, busy, total: (profile.endTime - profile.startTime) / 1000 };
}

interface LongTask {
  start: number;
  duration: number;
}

function report(label: string, profile: Profile, tasks: LongTask[], windowMs: number): void {
  const { rows, busy } = selfTimes(profile);
  const blocking = tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
  console.log(
    `  ${label}: ${windowMs.toFixed(0)} ms window, main thread busy ${busy.toFixed(0)} ms (${((busy / windowMs) * 100).toFixed(0)}%), ` +
      `${tasks.length} long tasks (longest ${Math.max(0, ...tasks.map((t) => t.duration)).toFixed(0)} ms), blocking time ${blocking.toFixed(0)} ms`,
  );
  for (const [name, ms] of rows.slice(0, TOP)) console.log(`    ${ms.toFixed(1).padStart(8)} ms  ${name}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Time of the renderer's main thread by event kind (style, layout, paint, script...), nested events counted once per name. */
function mainThreadKinds(events: TraceEvent[]): string {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return '-';
  const kinds = ['RunTask', 'FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'MajorGC', 'MinorGC'];
  const sums = new Map<string, number>();
  for (const e of events) {
    if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !kinds.includes(e.name)) continue;
    sums.set(e.name, (sums.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return kinds.filter((k) => sums.has(k)).map((k) => `${k} ${sums.get(k)!.toFixed(0)} ms`).join(', ');
}

const server = await createTestApp('pglite', { HISTORY_BARS: '300' }, { webDist: DIST });
await server.app.listen({ port: 0, host: '127.0.0.1' });
await server.startBackground();
const base = `http://127.0.0.1:${(server.app.server.address() as net.AddressInfo).port}`;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
console.log(
  `web profile of ${DIST}: CPU ${CPU_RATE}x slower, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);

try {
  for (const route of ROUTES) {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
    });
    // Browser code as strings: this file is type-checked without the DOM library.
    await context.addInitScript(`
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    `);
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const started = Date.now();
    await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
    const bootMs = Date.now() - started;
    const boot = (await cdp.send('Profiler.stop')).profile as Profile;
    const tasksAtBoot = await page.evaluate<LongTask[]>('window.__longTasks.slice()');
    const steadyFrom = await page.evaluate<number>('performance.now()');
    await cdp.send('Profiler.start');
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await page.waitForTimeout(STEADY_MS);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const steady = (await cdp.send('Profiler.stop')).profile as Profile;
    const tasksSteady = await page.evaluate<LongTask[]>(`window.__longTasks.filter((t) => t.start >= ${steadyFrom})`);
    const rows = await page.evaluate<number>(`document.querySelectorAll('[data-testid="bid"]').length`);
    console.log(`${route} (${rows} quote rows on screen)`);
    report('boot', boot, tasksAtBoot, bootMs);
    report('steady', steady, tasksSteady, STEADY_MS);
    console.log(`    renderer main thread by kind: ${mainThreadKinds(trace.traceEvents)}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
