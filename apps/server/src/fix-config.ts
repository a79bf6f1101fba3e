import fs from 'node:fs';
import { z } from 'zod';

/** One FIX 4.4 market data session with a liquidity provider (FIX_CONFIG; docs/fix.md). */
const FixSessionSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, - or _ (at most 40)'),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535),
    senderCompId: z.string().min(1),
    targetCompId: z.string().min(1),
    username: z.string().optional(),
    password: z.string().optional(),
    heartbeatSeconds: z.number().int().min(1).max(300).default(30),
    /** Logon with ResetSeqNumFlag (141=Y): both sides start again at 1 at every logon. */
    resetOnLogon: z.boolean().default(true),
    tls: z.boolean().default(false),
    /** Wait before trying again after a lost connection (and between tries at start); after a failed recovery, maxReconnectSeconds. */
    reconnectSeconds: z.number().min(0.1).max(60).default(1),
    maxReconnectSeconds: z.number().min(1).max(600).default(30),
    /** Our symbol code -> the provider's symbol name (55). */
    symbols: z
      .record(z.string().regex(/^[A-Z0-9._]{1,20}$/, 'a symbol code'), z.string().min(1))
      .refine((m) => Object.keys(m).length > 0, 'at least one symbol'),
  })
  .strict();

export const FixConfigSchema = z
  .object({
    sessions: z.array(FixSessionSchema).min(1, 'at least one session (the first is the primary)'),
    /** One price from several sessions: the first live one per symbol (failover), or the best bid and ask among the live ones (best). */
    mode: z.enum(['failover', 'best']).default('failover'),
    /** Orders to the providers (A-book and hybrid groups; docs/fix.md#hedging). */
    hedge: z
      .object({
        /** Wait for a final execution report before the order counts as timed out. */
        timeoutMs: z.number().int().min(50).max(60_000).default(5000),
        /** A-book orders: a limit IOC at the client's worst price within their deviation, or a market order. */
        orderType: z.enum(['limit', 'market']).default('limit'),
        /** How often the hybrid reconciler looks again without a fill (it also runs after every committed fill). */
        reconcileSeconds: z.number().min(0.1).max(3600).default(5),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((c) => new Set(c.sessions.map((s) => s.name)).size === c.sessions.length, 'session names must differ');

export type FixSessionConfig = z.infer<typeof FixSessionSchema>;
export type FixConfig = z.infer<typeof FixConfigSchema>;

/** Reads and checks FIX_CONFIG; the error lists every problem with its path in the file. */
export function readFixConfig(file: string): FixConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`FIX_CONFIG: cannot read ${file} (${code ?? (err as Error).message})`, { cause: err });
  }
  const parsed = FixConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  FIX_CONFIG ${file}: ${i.path.join('.') || '(file)'}: ${i.message}`);
    throw new Error(lines.join('\n'));
  }
  return parsed.data;
}
