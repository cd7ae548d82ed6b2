import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import {
  describeTemporalConnection,
  describeTemporalConnections,
  sameConnection,
  temporalConnectionsFromEnv,
  type TemporalConnectionOptions,
  type TemporalConnections,
} from '../../../../src/common/temporal/connection-options';
import { makeTestCertificates, type TestCertificates } from '../../../support/test-certificates';

const API_KEY = 'tmprl-api-key-do-not-log-7f3a91';

let pki: TestCertificates;

beforeAll(async () => {
  pki = await makeTestCertificates();
});

afterAll(() => pki?.remove());

function connections(env: NodeJS.ProcessEnv): TemporalConnections {
  const result = temporalConnectionsFromEnv(env);
  if (!result.ok) throw new Error(`unexpected problems:\n${result.problems.join('\n')}`);
  return result.options;
}

/** The settings of both environments, when they are the same. */
function options(env: NodeJS.ProcessEnv): TemporalConnectionOptions {
  const both = connections(env);
  expect(sameConnection(both)).toBe(true);
  return both.test;
}

function problems(env: NodeJS.ProcessEnv): string[] {
  const result = temporalConnectionsFromEnv(env);
  if (result.ok) throw new Error('expected problems, got none');
  return result.problems;
}

function configFile(name: string, toml: string): string {
  const file = path.join(pki.dir, name);
  fs.writeFileSync(file, toml);
  return file;
}

const read = (file: string) => new Uint8Array(fs.readFileSync(file));

describe('Temporal connection options', () => {
  it('connect in plaintext to localhost:7233 when nothing is set, as the SDK does', () => {
    expect(options({})).toEqual({ address: 'localhost:7233', tls: false });
  });

  it('turn TLS on for an API key alone, as Temporal Cloud requires', () => {
    expect(options({ TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233', TEMPORAL_API_KEY: API_KEY })).toEqual({
      address: 'eu-west-1.aws.api.temporal.io:7233',
      tls: {},
      apiKey: API_KEY,
    });
  });

  it('read the server CA, server name and client pair from TEMPORAL_TLS_*_PATH files', () => {
    const built = options({
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.ca.cert,
      TEMPORAL_TLS_SERVER_NAME: 'localhost',
      TEMPORAL_TLS_CLIENT_CERT_PATH: pki.client.cert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: pki.client.key,
    });
    expect(built.tls).toEqual({
      serverNameOverride: 'localhost',
      serverRootCACertificate: read(pki.ca.cert),
      clientCertPair: { crt: read(pki.client.cert), key: read(pki.client.key) },
    });
  });

  it('take the same material inline from TEMPORAL_TLS_*_DATA', () => {
    const built = options({
      TEMPORAL_TLS_SERVER_CA_CERT_DATA: fs.readFileSync(pki.ca.cert, 'utf8'),
      TEMPORAL_TLS_CLIENT_CERT_DATA: fs.readFileSync(pki.client.cert, 'utf8'),
      TEMPORAL_TLS_CLIENT_KEY_DATA: fs.readFileSync(pki.client.key, 'utf8'),
    });
    expect(describeTemporalConnection(built)).toBe('localhost:7233 (mTLS)');
    expect(built.tls && Buffer.from(built.tls.clientCertPair!.key).toString()).toBe(fs.readFileSync(pki.client.key, 'utf8'));
  });

  it('read a TOML profile chosen by TEMPORAL_PROFILE, with environment variables overriding it', () => {
    const file = configFile(
      'profiles.toml',
      [
        '[profile.default]',
        'address = "localhost:7233"',
        '[profile.cloud]',
        'address = "acme.a1b2c.tmprl.cloud:7233"',
        'namespace = "ignored-by-assay"',
        '[profile.cloud.tls]',
        `client_cert_path = "${pki.client.cert}"`,
        `client_key_path = "${pki.client.key}"`,
        '[profile.cloud.grpc_meta]',
        'x-team = "architecture"',
      ].join('\n'),
    );
    const env = { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'cloud' };
    expect(describeTemporalConnection(options(env))).toBe('acme.a1b2c.tmprl.cloud:7233 (mTLS)');
    expect(options(env).metadata).toEqual({ 'x-team': 'architecture' });
    expect(options({ ...env, TEMPORAL_ADDRESS: 'other.tmprl.cloud:7233' }).address).toBe('other.tmprl.cloud:7233');
    expect(options({ TEMPORAL_CONFIG_FILE: file }).tls).toBe(false);
  });

  it('give an environment its own address or profile, e.g. a Temporal Cloud namespace endpoint each', () => {
    const file = configFile(
      'environments.toml',
      ['[profile.sandbox]', 'address = "assay-sandbox.a1b2c.tmprl.cloud:7233"', '[profile.sandbox.tls]', `client_cert_path = "${pki.client.cert}"`, `client_key_path = "${pki.client.key}"`].join('\n'),
    );
    const both = connections({
      TEMPORAL_CONFIG_FILE: file,
      TEMPORAL_PROFILE_SANDBOX: 'sandbox',
      TEMPORAL_ADDRESS_PRODUCTION: 'assay-production.a1b2c.tmprl.cloud:7233',
      TEMPORAL_API_KEY: API_KEY,
    });
    expect(sameConnection(both)).toBe(false);
    expect(describeTemporalConnections(both)).toBe(
      'sandbox assay-sandbox.a1b2c.tmprl.cloud:7233 (mTLS, API key), production assay-production.a1b2c.tmprl.cloud:7233 (TLS, API key)',
    );
  });

  it('send TEMPORAL_GRPC_META_* as gRPC metadata', () => {
    expect(options({ TEMPORAL_GRPC_META_X_TENANT: 'acme' }).metadata).toEqual({ 'x-tenant': 'acme' });
  });

  it('name the API key without its value when they describe a connection', () => {
    const described = describeTemporalConnection(options({ TEMPORAL_ADDRESS: 'cloud:7233', TEMPORAL_API_KEY: API_KEY }));
    expect(described).toBe('cloud:7233 (TLS, API key)');
  });
});

describe('Temporal connection problems', () => {
  it.each<[string, () => NodeJS.ProcessEnv, RegExp]>([
    [
      'a missing certificate file',
      () => ({ TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.crt', TEMPORAL_TLS_CLIENT_KEY_PATH: pki.client.key }),
      /^TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read \/nonexistent\/client.crt \(ENOENT\)$/,
    ],
    [
      'a key without a certificate',
      () => ({ TEMPORAL_TLS_CLIENT_KEY_PATH: pki.client.key }),
      /^TEMPORAL_TLS_CLIENT_KEY_PATH: a client key needs its client certificate/,
    ],
    [
      'a certificate without a key',
      () => ({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.client.cert }),
      /^TEMPORAL_TLS_CLIENT_CERT_PATH: a client certificate needs its private key/,
    ],
    [
      'a key of another certificate',
      () => ({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.client.cert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.server.key }),
      /^TEMPORAL_TLS_CLIENT_KEY_PATH: is not the private key of the client certificate \(TEMPORAL_TLS_CLIENT_CERT_PATH\)$/,
    ],
    [
      'a CA file that is not a certificate',
      () => ({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.ca.key }),
      /^TEMPORAL_TLS_SERVER_CA_CERT_PATH: is not a PEM certificate$/,
    ],
    [
      'TLS settings while TLS is off',
      () => ({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.ca.cert }),
      /^TEMPORAL_TLS_SERVER_CA_CERT_PATH: set while TLS is off \(TEMPORAL_TLS\)/,
    ],
    ['an API key without TLS', () => ({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: API_KEY }), /^TEMPORAL_API_KEY: an API key is never sent without TLS/],
    ['an address without a port', () => ({ TEMPORAL_ADDRESS: 'temporal.internal' }), /^TEMPORAL_ADDRESS: "temporal.internal" is not host:port$/],
    ['a single TEMPORAL_NAMESPACE', () => ({ TEMPORAL_NAMESPACE: 'default' }), /^TEMPORAL_NAMESPACE: Assay has one namespace per environment/],
    ['a config file that is not there', () => ({ TEMPORAL_CONFIG_FILE: '/nonexistent/temporal.toml' }), /^TEMPORAL_CONFIG_FILE: no file at \/nonexistent\/temporal.toml$/],
    [
      'a profile that is not in the file',
      () => ({ TEMPORAL_CONFIG_FILE: configFile('one.toml', '[profile.default]\naddress = "a:1"\n'), TEMPORAL_PROFILE: 'prod' }),
      /^TEMPORAL_PROFILE: no profile "prod" in .*one\.toml$/,
    ],
    [
      'an environment\'s profile that is not in the file',
      () => ({ TEMPORAL_CONFIG_FILE: configFile('default-only.toml', '[profile.default]\naddress = "a:1"\n'), TEMPORAL_PROFILE_PRODUCTION: 'prod' }),
      /^TEMPORAL_PROFILE_PRODUCTION: no profile "prod" in .*default-only\.toml$/,
    ],
    ['an environment\'s address without a port', () => ({ TEMPORAL_ADDRESS_SANDBOX: 'sandbox.internal' }), /^TEMPORAL_ADDRESS_SANDBOX: "sandbox.internal" is not host:port$/],
    [
      'a profile key without its file',
      () => ({
        TEMPORAL_CONFIG_FILE: configFile('key-only.toml', `[profile.default.tls]\nclient_key_path = "${pki.client.key}"\n`),
      }),
      /^profile "default" tls.client_key_path or tls.client_key_data in .*key-only\.toml: a client key needs its client certificate/,
    ],
  ])('reported for %s, one line naming the setting', (_case, env, line) => {
    const found = problems(env());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(line);
  });

  it('are all reported at once, one line each', () => {
    const found = problems({ TEMPORAL_ADDRESS: 'no-port', TEMPORAL_NAMESPACE: 'x', TEMPORAL_TLS_CLIENT_KEY_PATH: '/nonexistent/key' });
    expect(found.map((line) => line.split(':')[0])).toEqual(['TEMPORAL_NAMESPACE', 'TEMPORAL_ADDRESS', 'TEMPORAL_TLS_CLIENT_KEY_PATH', 'TEMPORAL_TLS_CLIENT_KEY_PATH']);
  });

  it('stop the process at start as an invalid configuration', () => {
    const config = new AppConfig({ TEMPORAL_TLS_CLIENT_KEY_PATH: pki.client.key });
    expect(() => config.temporalConnections).toThrow(InvalidConfigError);
    expect(() => config.temporalConnections).toThrow(/^Invalid configuration:\n {2}TEMPORAL_TLS_CLIENT_KEY_PATH: a client key needs/);
  });
});

describe('secrets in connection problems', () => {
  const privateKey = () => fs.readFileSync(pki.client.key, 'utf8');
  const keyBody = () => privateKey().split('\n')[1];

  it('never include the API key or the private key, from the environment', () => {
    const env = {
      TEMPORAL_TLS: 'false',
      TEMPORAL_API_KEY: API_KEY,
      TEMPORAL_TLS_CLIENT_KEY_DATA: privateKey(),
      TEMPORAL_TLS_CLIENT_CERT_DATA: `not a certificate ${API_KEY}`,
    };
    const message = captureMessage(() => new AppConfig(env).temporalConnections);
    expect(message.split('\n').length).toBeGreaterThan(3);
    expect(message).not.toContain(API_KEY);
    expect(message).not.toContain(keyBody());
  });

  it('never include them when the key is not PEM or belongs to another certificate', () => {
    const notPem = captureMessage(() => new AppConfig({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.client.cert, TEMPORAL_TLS_CLIENT_KEY_DATA: API_KEY }).temporalConnections);
    expect(notPem).toMatch(/TEMPORAL_TLS_CLIENT_KEY_DATA: is not a PEM private key/);
    expect(notPem).not.toContain(API_KEY);
    const serverKey = fs.readFileSync(pki.server.key, 'utf8');
    const mismatch = captureMessage(() => new AppConfig({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.client.cert, TEMPORAL_TLS_CLIENT_KEY_DATA: serverKey }).temporalConnections);
    expect(mismatch).not.toContain(serverKey.split('\n')[1]);
  });

  it('never quote a config file line, which may hold a key', () => {
    const file = configFile('broken.toml', `[profile.default]\napi_key = "${API_KEY}\nclient_key_data = """${privateKey()}\n`);
    const message = captureMessage(() => new AppConfig({ TEMPORAL_CONFIG_FILE: file }).temporalConnections);
    expect(message).toMatch(/TEMPORAL_CONFIG_FILE: .*broken\.toml is not valid TOML \(line 2, column \d+\)/);
    expect(message).not.toContain(API_KEY);
    expect(message).not.toContain(keyBody());
  });
});

function captureMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}
