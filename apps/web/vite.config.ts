import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes .br and .gz siblings of every compressible file in dist: the server sends them as they
 * are (@fastify/static preCompressed), so a phone downloads a third of the bytes with no
 * compression work per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'tp-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const content = fs.readFileSync(file);
        fs.writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

const ENTRY = fileURLToPath(new URL('./src/main.tsx', import.meta.url));

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * Everything the entry imports statically goes into one "boot" chunk: on HTTP/1.1 a phone pays a
 * round trip per file, and the start bundle used to be 15 small files. Lazy routes keep their own
 * chunks and import from this one.
 */
function bootChunk() {
  let reachable: Set<string> | null = null;
  return (id: string, ctx: ModuleGraph): string | null => {
    if (!reachable) {
      const seen = new Set<string>();
      const stack = [ENTRY];
      while (stack.length) {
        const next = stack.pop()!;
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
      }
      reachable = seen;
    }
    return reachable.has(id) ? 'boot' : null;
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by bench/web.ts to measure what the home route loads.
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: bootChunk() }] } } },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/v1': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
