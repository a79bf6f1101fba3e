import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

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
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await server.close();
      process.exit(0);
    } catch (err) {
      ctx.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  await server.startBackground();
  const url = `http://localhost:${config.PORT}`;
  ctx.log.info({ url, database: ctx.dbKind }, 'server listening');
  if (config.NODE_ENV !== 'test') {
    process.stdout.write(
      [
        '',
        `  Trading platform running at ${url}`,
        `  Database: ${ctx.dbKind === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL'}`,
        `  Try it: open ${url}, go to Log in and press "Try a demo account" (no registration needed).`,
        `  Back office: ${url}/admin  (staff: ${config.ADMIN_EMAIL}; password from ADMIN_PASSWORD or printed at the first start)`,
        `  API docs: ${url}/api/docs`,
        '',
      ].join('\n'),
    );
  }
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
