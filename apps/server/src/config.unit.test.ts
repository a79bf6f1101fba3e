import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('reads secrets from *_FILE, without the trailing newline, and refuses both forms or an unreadable file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-config-'));
    const file = path.join(dir, 'admin_password');
    fs.writeFileSync(file, 'from-a-secret-file\n');
    expect(loadConfig({ ADMIN_PASSWORD_FILE: file }).ADMIN_PASSWORD).toBe('from-a-secret-file');
    expect(() => loadConfig({ ADMIN_PASSWORD_FILE: file, ADMIN_PASSWORD: 'from-the-environment' })).toThrow(
      /ADMIN_PASSWORD and ADMIN_PASSWORD_FILE: set one/,
    );
    expect(() => loadConfig({ DATABASE_URL_FILE: path.join(dir, 'missing') })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL_FILE: path.join(dir, 'missing') })).toThrow(/DATABASE_URL_FILE: cannot read .*ENOENT/);
    fs.rmSync(dir, { recursive: true });
  });

  it('takes TRUST_PROXY as a switch, a hop count or a list of addresses and CIDR ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.local' })).toThrow(/TRUST_PROXY/);
  });

  it('migrates at start unless told to only check', () => {
    expect(loadConfig({}).MIGRATE_ON_START).toBe(true);
    expect(loadConfig({ MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
  });
});
