import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { runCommand } from './ops/commands.ts';
import { startControl } from './ops/control.ts';
import { SchemaTooOldError } from './platform/db/migrate.ts';
import { isConnectionLost } from './platform/db/client.ts';
import { isRedisConnectionError } from './platform/redis-bus.ts';

function startBlock(config: Config, dbKind: string, generatedPassword: string | undefined): string {
  const url = `http://localhost:${config.PORT}`;
  const staffPassword = generatedPassword
    ? [`  Password (generated, shown only this once, keep it): ${generatedPassword}`]
    : [
        `  Password: ${config.ADMIN_PASSWORD ? 'ADMIN_PASSWORD' : 'the one shown at the first start'} (stored only as a hash, never printed again)`,
        `  Forgot it: npm run admin -- reset-password ${config.ADMIN_EMAIL}`,
      ];
  return [
    '',
    `  Trading platform running at ${url}`,
    `  Database: ${dbKind === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL'}`,
    `  Trader: open ${url}, go to Log in and press "Try a demo account" (no registration needed).`,
    `  Back office: ${url}/admin  staff email: ${config.ADMIN_EMAIL}`,
    ...staffPassword,
    `  API docs: ${url}/api/docs    Stop: Ctrl+C (or SIGTERM)`,
    '',
    '',
  ].join('\n');
}

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const server = await buildApp({ config });
  const { app, ctx } = server;
  let stopControl: (() => Promise<void>) | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      ctx.log.error({ ms: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long: exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await stopControl?.();
      // Background work (engine, candles) stops and flushes, sockets get a close frame, requests drain, the database closes.
      await server.close();
      ctx.log.info({ signal }, 'stopped');
      process.exit(0);
    } catch (err) {
      ctx.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // A lost database or Redis connection fails the work it served, never the process: such an error
  // reaching here (a driver emitting it with no listener) is logged and survived. Anything else is
  // a state this code does not know, and the process ends after logging it.
  process.on('uncaughtException', (err, origin) => {
    if (isConnectionLost(err) || isRedisConnectionError(err)) {
      ctx.log.error({ err, origin }, 'connection error outside any request: survived');
      return;
    }
    ctx.log.fatal({ err, origin }, 'unexpected error: exiting');
    process.exit(1);
  });
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  await server.startBackground();
  if (ctx.dbKind === 'pglite') {
    stopControl = await startControl(config.DATA_DIR, (argv) => runCommand(server.database, config, argv), ctx.log).catch((err: Error) => {
      ctx.log.warn({ err: err.message }, 'operator socket not started: stop the server before npm run admin or backup');
      return undefined;
    });
  }
  ctx.log.info({ url: `http://localhost:${config.PORT}`, database: ctx.dbKind }, 'server listening');
  if (config.NODE_ENV !== 'test') process.stdout.write(startBlock(config, ctx.dbKind, ctx.services.staff.generatedPassword));
}

main().catch((err) => {
  // An old schema is the operator's next step, not a crash: the message says what to run.
  if (err instanceof SchemaTooOldError) {
    process.stderr.write(`Not starting: ${err.message}\n`);
    process.exit(3);
  }
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
