import type { JsonServerMessage } from '@tp/contract/pushes';

/**
 * Server-to-client WebSocket frames are never masked, so one framed buffer can be written to every
 * subscriber's socket as is: a message is serialized and framed once, whatever the audience.
 */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const len = payload.length;
  const header = len < 126 ? 2 : len < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + len);
  frame[0] = 0x81; // FIN + text
  if (header === 2) {
    frame[1] = len;
  } else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(len, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(len), 2);
  }
  payload.copy(frame, header);
  return frame;
}

/** A declared server message (built by the contract's `pushMessage`), or one that serializes to one. */
export type WireMessage = JsonServerMessage | { toJSON(): JsonServerMessage };

export const jsonFrame = (message: WireMessage): Buffer => textFrame(JSON.stringify(message));
