import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module owns its tables in its own schema file; the platform's shared tables sit in platform-schema.ts.
  schema: ['./src/platform/db/platform-schema.ts', './src/modules/*/schema.ts', './src/modules/*/db/schema.ts'],
  out: './drizzle',
});
