/**
 * The cost floor of `npm run bench:ws`: a bare `ws` server with no application work (no topics,
 * no coalescing, no JSON per message) that writes, to every connected socket, the bytes per second
 * and the writes per second the product wrote in the same run. Each write is one pre-framed text
 * frame carrying the send time, built once per round and written as is to every socket, which is
 * the least a server can do to put those bytes on those sockets. Its CPU time is the floor the
 * product's CPU is compared with.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { textFrame } from '../apps/server/src/realtime/frames.ts';
import { loopDelayMonitor } from './loop-delay.ts';

const sockets = new Set<Socket>();
const wss = new WebSocketServer({ noServer: true });
const server = http.createServer();
server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    const raw = socket as Socket;
    sockets.add(raw);
    ws.on('message', () => undefined);
    ws.on('close', () => sockets.delete(raw));
    ws.on('error', () => undefined);
  });
});
server.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const loopDelay = loopDelayMonitor(10);
let timer: NodeJS.Timeout | null = null;
let written = 0;
let writtenBytes = 0;

/** One text frame of `size` bytes in all, whose payload starts like a quote push with the time. */
function frameOf(size: number): Buffer {
  const head = `{"type":"DAY_MARKET","symbol":"FLOOR","time":${Date.now()},"pad":"`;
  const room = Math.max(0, size - head.length - 2 - 4);
  return textFrame(`${head}${'x'.repeat(room)}"}`);
}

process.on('message', (msg: { cmd: string; writesPerSecond?: number; bytesPerWrite?: number }) => {
  if (msg.cmd === 'start') {
    const period = 1000 / msg.writesPerSecond!;
    const size = msg.bytesPerWrite!;
    loopDelay.enable();
    let next = performance.now();
    const round = () => {
      const frame = frameOf(size);
      for (const s of sockets) {
        s.write(frame);
        written++;
        writtenBytes += frame.length;
      }
      next += period;
      timer = setTimeout(round, Math.max(0, next - performance.now()));
    };
    round();
    process.send!({ event: 'started' });
  } else if (msg.cmd === 'stats') {
    const loop = loopDelay.read();
    process.send!({ event: 'stats', cpu: process.cpuUsage(), loop, writes: written, bytes: writtenBytes, connections: sockets.size });
  } else if (msg.cmd === 'stop') {
    if (timer) clearTimeout(timer);
    for (const s of sockets) s.destroy();
    process.exit(0);
  }
});
process.send!({ event: 'listening', port: (server.address() as { port: number }).port });
