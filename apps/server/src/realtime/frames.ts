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

export const jsonFrame = (message: unknown): Buffer => textFrame(JSON.stringify(message));
