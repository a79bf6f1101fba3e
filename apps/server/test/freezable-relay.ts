import net from 'node:net';

/**
 * A TCP relay in front of Redis that can be frozen: while frozen it passes nothing either way, as
 * a Redis stopped with SIGSTOP (connections stay open, no answer comes).
 */
export async function freezableRelay(target: URL) {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const pipe = (from: net.Socket, to: net.Socket) =>
    from.on('data', (chunk) => {
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => (client.destroy(), upstream.destroy()));
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const f of held.splice(0)) f();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
