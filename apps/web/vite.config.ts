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

/**
 * The web app needs an endpoint's path, methods, auth and body encoding at run time, never its zod
 * schemas (their types are erased): in the build, every `input:` and `output:` value of the endpoint
 * table becomes `undefined`, so zod and the schema modules stay out of the boot chunk. Types still come
 * from the untouched source.
 */
function endpointsWithoutSchemas(): Plugin {
  const ENDPOINTS = /packages[\\/]contract[\\/]src[\\/]endpoints[\\/][\w-]+\.ts$/;
  return {
    name: 'tp-endpoints-without-schemas',
    apply: 'build',
    transform(code, id) {
      if (!ENDPOINTS.test(id)) return null;
      return { code: withoutUnusedImports(stripSchemaValues(code)), map: null };
    },
  };
}

/** Drops the names of `import { ... }` statements the rest of the module no longer uses (the schemas). */
export function withoutUnusedImports(code: string): string {
  const imports = /^import\s*(type\s*)?\{([^}]*)\}\s*from\s*(['"][^'"]+['"]);?\n/gm;
  const body = code.replace(imports, '');
  return code.replace(imports, (_whole, typeOnly: string | undefined, names: string, from: string) => {
    if (typeOnly) return '';
    const used = names
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type ') && new RegExp(`\\b${n.split(/\s+as\s+/).pop()}\\b`).test(body));
    return used.length ? `import { ${used.join(', ')} } from ${from};\n` : '';
  });
}

/** Replaces the value of every `input:` / `output:` property with `undefined` (balanced brackets, strings skipped). */
export function stripSchemaValues(code: string): string {
  let out = '';
  let i = 0;
  const key = /(^|[{,\s])(input|output):\s*/g;
  for (let m = key.exec(code); m; m = key.exec(code)) {
    const start = m.index + m[1]!.length + m[2]!.length + 1;
    let j = m.index + m[0].length;
    let depth = 0;
    for (; j < code.length; j++) {
      const c = code[j]!;
      if (c === "'" || c === '"' || c === '`') {
        for (j++; j < code.length && code[j] !== c; j++) if (code[j] === '\\') j++;
      } else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) break;
    }
    out += code.slice(i, start) + ' undefined';
    i = j;
    key.lastIndex = j;
  }
  return out + code.slice(i);
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
  plugins: [endpointsWithoutSchemas(), react(), tailwindcss(), precompress()],
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
