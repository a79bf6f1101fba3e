/**
 * Every locked package runs on the Node the README promises (package.json engines, 20.19+):
 * `npm ci` prints no EBADENGINE warning. A package whose new line drops that Node is pinned to
 * the line that keeps it, in package.json overrides.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.ts';

interface Locked {
  version?: string;
  engines?: { node?: string } | string[];
}

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as T;

describe('Node engines', () => {
  it('every package in the lock file accepts the oldest Node the project supports', () => {
    const promised = read<{ engines: { node: string } }>('package.json').engines.node;
    const oldest = semver.minVersion(promised)!.version;
    expect(oldest).toBe('20.19.0');
    const { packages } = read<{ packages: Record<string, Locked> }>('package-lock.json');
    const refusing = Object.entries(packages)
      .map(([where, pkg]) => ({ where, version: pkg.version, node: Array.isArray(pkg.engines) ? undefined : pkg.engines?.node }))
      .filter((p) => p.node && !semver.satisfies(oldest, p.node, { includePrerelease: true }));
    expect(refusing).toEqual([]);
  });
});
