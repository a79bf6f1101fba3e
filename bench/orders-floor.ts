/**
 * The cost floor of `npm run bench:orders`: the least an HTTP server does for an order. Node's own
 * `http` server (no framework, no validation, no logging), the caller found by its token in a Map
 * held in memory, then the limit's transaction on a `pg` pool (BEGIN, UPDATE of a balance row,
 * INSERT of one posting, COMMIT: four round trips, named statements, as the limit's loop sends
 * them), then a `{code, msg, data}` answer. No order row, no ledger, no checks: what is left of an
 * order once everything that is the product's is taken away. Its CPU per request is the floor the
 * product's server CPU per order is compared with, on the same machine in the same run.
 *
 * FLOOR_HTTP=fastify does the same in Fastify (no logger, plugin or schema): the chosen framework's
 * own share of the floor.
 *
 * Started by bench/orders.ts with DATABASE_URL (a scratch database holding the limit's tables),
 * POOL_SIZE and TOKENS (a JSON array; token i is account i); it answers { event: 'listening', port }.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 32) });
const accounts = new Map<string, number>((JSON.parse(process.env.TOKENS ?? '[]') as string[]).map((token, i) => [token, i]));
const UPDATE = 'update bench_balance set balance = balance + $1 where id = $2';
const INSERT = 'insert into bench_posting (account_id, amount) values ($1, $2) returning id';
let turn = 0;

async function order(account: number): Promise<string> {
  const client = await pool.connect();
  try {
    const amount = turn++ % 2 ? 1 : -1;
    await client.query('begin');
    await client.query({ name: 'floor-update', text: UPDATE, values: [amount, account] });
    const row = await client.query<{ id: string }>({ name: 'floor-insert', text: INSERT, values: [account, amount] });
    await client.query('commit');
    return row.rows[0]!.id;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const respond = (account: number | undefined): Promise<[number, string]> =>
  account === undefined
    ? Promise.resolve([401, '{"code":401,"msg":"unauthorized","data":null}'])
    : order(account).then(
        (id): [number, string] => [200, JSON.stringify({ code: 1, msg: 'success', data: { Id: Number(id) } })],
        (err: unknown): [number, string] => [500, JSON.stringify({ code: 0, msg: String(err), data: null })],
      );
const listening = (port: number) => process.send!({ event: 'listening', port });

if (process.env.FLOOR_HTTP === 'fastify') {
  // The same work in the product's framework, as bare as it goes: no logger, no plugin, no schema.
  const app = Fastify({ logger: false });
  app.get('/*', async (req, reply) => {
    const [status, body] = await respond(accounts.get(req.headers.authorization ?? ''));
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  listening((app.server.address() as AddressInfo).port);
} else {
  const server = http.createServer((req, res) => {
    void respond(accounts.get(req.headers.authorization ?? '')).then(([status, body]) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as AddressInfo).port));
}
process.on('disconnect', () => process.exit(0));
