import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  /** Connection string of the new database. */
  url: string;
  /** Drops it, closing whatever connections are left. */
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database on the server of `base` (a connection string), for one test file or benchmark run. */
export async function createScratchDatabase(base: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
