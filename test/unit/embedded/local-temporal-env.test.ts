import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { temporalConnectionsFromEnv } from '../../../src/common/temporal/connection-options';
import { localTemporalEnv } from '../../../src/embedded/local-temporal-env';

let home: string;

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-home-'));
  const configDir = path.join(home, '.config', 'temporalio');
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(
    path.join(configDir, 'temporal.toml'),
    '[profile.default]\naddress = "acme.a1b2c.tmprl.cloud:7233"\napi_key = "from-the-default-profile"\n[profile.default.tls]\nserver_name = "acme"\n',
  );
});

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('the environment npm start gives its worker and API', () => {
  it('reaches the local dev server in plaintext, whatever this shell is set up for', () => {
    const shell = {
      HOME: home,
      PATH: '/usr/bin',
      TEMPORAL_PROFILE: 'default',
      TEMPORAL_API_KEY: 'from-the-shell',
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.crt',
      TEMPORAL_GRPC_META_X_TEAM: 'ops',
      TEMPORAL_NAMESPACE_SANDBOX: 'my-sandbox',
      TEMPORAL_ADDRESS_PRODUCTION: 'prod.example.com:7233',
      TEMPORAL_PROFILE_SANDBOX: 'cloud-sandbox',
    };
    const env = localTemporalEnv(shell, '127.0.0.1:7233', home);
    const local = { address: '127.0.0.1:7233', tls: false };
    expect(temporalConnectionsFromEnv(env)).toEqual({ ok: true, options: { test: local, live: local } });
    expect(env).toMatchObject({ PATH: '/usr/bin', TEMPORAL_NAMESPACE_SANDBOX: 'my-sandbox' });
  });
});
