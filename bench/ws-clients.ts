/**
 * One process of benchmark clients: opens its share of connections, subscribes each to DAY_MARKET
 * and one KLINE topic, and measures the delay from tick time (carried in every push) to receipt.
 *
 * A lean RFC 6455 client (handshake, masked sends, frame walking) instead of a full library, so
 * that a few processes can receive hundreds of thousands of frames a second on a 2-core machine
 * without becoming the bottleneck they are meant to measure.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

const HEARTBEAT_MS = 5_000;
const MAX_DELAY_MS = 60_000;
/** The tick time sits near the start of every push ({"type":..,"symbol":..,"time":...}). */
const TIME_SCAN_BYTES = 120;

const url = new URL(process.env.BENCH_URL!);
const count = Number(process.env.BENCH_CLIENTS);
const codes = process.env.BENCH_CODES!.split(',');
const offset = Number(process.env.BENCH_OFFSET ?? 0);

const histogram = new Uint32Array(MAX_DELAY_MS + 1);
let measuring = false;
let deliveries = 0;
/** Bytes received while measuring (frames and headers). */
let bytes = 0;
let closed = 0;
let connected = 0;
let failed = 0;
const sockets: net.Socket[] = [];
let cpuAtStart = process.cpuUsage();
const TIME = Buffer.from('"time":');

/** A masked client text frame (payloads here are short). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
  return Buffer.concat([header, mask, payload]);
}

function onFrame(buf: Buffer, start: number, end: number, now: number): void {
  if (!measuring) return;
  const at = buf.indexOf(TIME, start);
  if (at < 0 || at > start + TIME_SCAN_BYTES || at >= end) return;
  let time = 0;
  for (let i = at + TIME.length; i < end; i++) {
    const c = buf[i]!;
    if (c < 48 || c > 57) break;
    time = time * 10 + (c - 48);
  }
  deliveries++;
  histogram[Math.min(MAX_DELAY_MS, Math.max(0, now - time))]!++;
}

/** Walks the frames in the received bytes; returns the bytes of an incomplete frame to keep. */
function walkFrames(buf: Buffer, socket: net.Socket): Buffer | null {
  const now = Date.now();
  let pos = 0;
  while (buf.length - pos >= 2) {
    const opcode = buf[pos]! & 0x0f;
    let len = buf[pos + 1]! & 0x7f;
    let header = 2;
    if (len === 126) {
      if (buf.length - pos < 4) break;
      len = buf.readUInt16BE(pos + 2);
      header = 4;
    } else if (len === 127) {
      if (buf.length - pos < 10) break;
      len = Number(buf.readBigUInt64BE(pos + 2));
      header = 10;
    }
    if (buf.length - pos < header + len) break;
    const start = pos + header;
    if (opcode === 1) onFrame(buf, start, start + len, now);
    else if (opcode === 8) socket.end();
    pos = start + len;
  }
  return pos < buf.length ? buf.subarray(pos) : null;
}

function open(i: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let handshake = true;
    let rest: Buffer | null = null;
    socket.on('connect', () => {
      socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (measuring) bytes += chunk.length;
      let buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      if (handshake) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          rest = buf;
          return;
        }
        if (!buf.subarray(0, 12).toString().includes('101')) {
          failed++;
          socket.destroy();
          resolve();
          return;
        }
        handshake = false;
        connected++;
        sockets.push(socket);
        socket.write(clientFrame(JSON.stringify({ type: 'sub', params: 'DAY_MARKET' })));
        socket.write(clientFrame(JSON.stringify({ type: 'sub', params: `KLINE.${codes[(offset + i) % codes.length]}` })));
        resolve();
        buf = buf.subarray(end + 4);
      }
      rest = walkFrames(buf, socket);
    });
    socket.on('close', () => {
      if (measuring) closed++;
    });
    socket.on('error', () => {
      if (handshake) failed++;
      resolve();
    });
  });
}

process.on('message', async (msg: { cmd: string }) => {
  if (msg.cmd === 'connect') {
    for (let i = 0; i < count; i += 100) await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)));
    // Each socket pings every HEARTBEAT_MS on its own phase, as browsers that opened at different times do;
    // BENCH_PINGS=together: all of them at one instant, a burst of thousands of pings every 5 s.
    const ping = clientFrame('ping');
    const slots = process.env.BENCH_PINGS === 'together' ? 1 : 100;
    let slot = 0;
    setInterval(() => {
      for (let i = slot; i < sockets.length; i += slots) if (!sockets[i]!.destroyed) sockets[i]!.write(ping);
      slot = (slot + 1) % slots;
    }, HEARTBEAT_MS / slots).unref();
    process.send!({ event: 'connected', connected, failed });
  } else if (msg.cmd === 'start') {
    cpuAtStart = process.cpuUsage();
    histogram.fill(0);
    deliveries = 0;
    bytes = 0;
    closed = 0;
    measuring = true;
  } else if (msg.cmd === 'stop') {
    measuring = false;
    const cpu = process.cpuUsage(cpuAtStart);
    process.send!({
      event: 'result',
      deliveries,
      bytes,
      closed,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      histogram: Array.from(histogram),
    });
  } else if (msg.cmd === 'exit') {
    for (const s of sockets) s.destroy();
    process.exit(0);
  }
});
