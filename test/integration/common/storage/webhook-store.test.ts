import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Client as PgClient } from 'pg';
import { AppConfig } from '../../../../src/common/config/app-config';
import { Storage } from '../../../../src/common/storage/storage';
import type { WebhookStore } from '../../../../src/common/storage/webhook-store';
import type { EventOwner, StoredWebhookEndpoint, WebhookDeliveryAttempt, WebhookRedelivery } from '../../../../src/common/storage/tables';
import { generateEncryptionKeyEntry } from '../../../../src/common/crypto/encryption-keys';
import { startTestPostgres, type TestPostgres } from '../../../support/test-postgres';

const FIRST_KEY = generateEncryptionKeyEntry('first');
const SECOND_KEY = generateEncryptionKeyEntry('second');

let postgres: TestPostgres;
const opened: Storage[] = [];
const tempDirs: string[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

afterAll(async () => {
  await postgres?.stop();
  tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

/** The raw stored secret columns, as anyone with the database file or a backup reads them. */
type RawSecrets = (id: string) => Promise<{ secret: string; previous_secret: string | null }>;

/**
 * Opens a process's storage on one fresh location, as often as called (with the encryption keys
 * given, if any), and hands back its webhook store; `raw` reads the stored secrets past the store.
 */
const backends: Array<[string, () => Promise<{ open: (keys?: string) => Promise<WebhookStore>; raw: RawSecrets }>]> = [
  [
    'SQLite',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-webhooks-'));
      tempDirs.push(dir);
      const config = (keys?: string) => new AppConfig({ DATA_DIR: dir, ...(keys ? { PAYLOAD_ENCRYPTION_KEYS: keys } : {}) });
      return {
        open: async (keys) => track(await Storage.open(config(keys))).webhooks,
        raw: async (id) => {
          const db = new Database(config().keyDatabasePath, { readonly: true });
          try {
            return db.prepare('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ?').get(id) as { secret: string; previous_secret: string | null };
          } finally {
            db.close();
          }
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await postgres.createDatabase();
      // A data directory of its own, so no key file of an earlier `npm start` in the working tree is read.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-webhooks-'));
      tempDirs.push(dir);
      return {
        open: async (keys) => track(await Storage.open(new AppConfig({ DATABASE_URL: url, DATA_DIR: dir, ...(keys ? { PAYLOAD_ENCRYPTION_KEYS: keys } : {}) }))).webhooks,
        raw: async (id) => {
          const client = new PgClient({ connectionString: url });
          await client.connect();
          try {
            return (await client.query('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [id])).rows[0];
          } finally {
            await client.end();
          }
        },
      };
    },
  ],
];

function track(storage: Storage): Storage {
  opened.push(storage);
  return storage;
}

function endpoint(overrides: Partial<StoredWebhookEndpoint> = {}): StoredWebhookEndpoint {
  return {
    id: 'we_1',
    organizationId: 'acme',
    environment: 'test',
    url: 'https://hooks.example.com/assay',
    events: ['ai_task.completed'],
    description: null,
    secret: 'whsec_first',
    previousSecret: null,
    previousSecretExpiresAt: null,
    disabledAt: null,
    disabledReason: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const ACME_TEST = { organizationId: 'acme', environment: 'test' } as const;

function redelivery(workflowId: string, eventId: string, startedAt: string, owner: EventOwner = ACME_TEST): WebhookRedelivery {
  return { ...owner, workflowId, eventId, startedAt };
}

function delivery(id: string, attemptedAt: string): WebhookDeliveryAttempt {
  return { id, endpointId: 'we_1', eventId: 'evt_1', eventType: 'ai_task.completed', attempt: 1, outcome: 'succeeded', httpStatus: 200, error: null, attemptedAt, durationMs: 5 };
}

describe.each(backends)('webhook store on %s', (_name, location) => {
  it('migrates once and shares the database with the key store', async () => {
    const { open } = await location();
    await (await open()).create(endpoint());
    expect(await (await open()).find('we_1')).toEqual(endpoint());
  });

  it("lists an organisation's endpoints of one environment only", async () => {
    const store = await (await location()).open();
    await store.create(endpoint({ id: 'we_1' }));
    await store.create(endpoint({ id: 'we_2', environment: 'live' }));
    await store.create(endpoint({ id: 'we_3', organizationId: 'globex' }));
    await store.create(endpoint({ id: 'we_4', events: ['ai_task.completed', 'assessment.reviewed'], createdAt: '2025-01-02T00:00:00.000Z' }));
    expect((await store.listFor('acme', 'test')).map((found) => found.id)).toEqual(['we_1', 'we_4']);
    expect((await store.listFor('acme', 'test'))[1].events).toEqual(['ai_task.completed', 'assessment.reviewed']);
  });

  it("tells the events of an organisation's enabled endpoints in one environment without opening a secret", async () => {
    const { open } = await location();
    const store = await open(FIRST_KEY);
    await store.create(endpoint({ id: 'we_1' }));
    await store.create(endpoint({ id: 'we_2', events: ['assessment.reviewed'] }));
    await store.create(endpoint({ id: 'we_3', environment: 'live' }));
    await store.create(endpoint({ id: 'we_4', organizationId: 'globex' }));
    await store.create(endpoint({ id: 'we_5', events: ['ai_task.completed', 'assessment.reviewed'] }));
    await store.disable('we_5', 'HTTP 410', '2025-01-02T00:00:00.000Z');
    const withoutTheKey = await open(SECOND_KEY);
    await expect(withoutTheKey.listFor('acme', 'test')).rejects.toThrow(/not configured/);
    const eventsOf = async (organizationId: string, environment: 'test' | 'live') => (await withoutTheKey.enabledSubscriptions(organizationId, environment)).map((subscription) => subscription.events);
    expect((await eventsOf('acme', 'test')).sort()).toEqual([['ai_task.completed'], ['assessment.reviewed']]);
    expect(await eventsOf('acme', 'live')).toEqual([['ai_task.completed']]);
    expect(await eventsOf('globex', 'test')).toEqual([['ai_task.completed']]);
    expect(await eventsOf('globex', 'live')).toEqual([]);
  });

  it('rotates: the current secret becomes the previous one', async () => {
    const store = await (await location()).open();
    await store.create(endpoint());
    const rotated = await store.rotateSecret({ id: 'we_1', secret: 'whsec_second', previousSecretExpiresAt: '2025-01-03T00:00:00.000Z', at: '2025-01-02T00:00:00.000Z' });
    expect(rotated).toMatchObject({ secret: 'whsec_second', previousSecret: 'whsec_first', previousSecretExpiresAt: '2025-01-03T00:00:00.000Z', updatedAt: '2025-01-02T00:00:00.000Z' });
    expect(await store.rotateSecret({ id: 'we_missing', secret: 'x', previousSecretExpiresAt: '2025-01-03T00:00:00.000Z', at: '2025-01-02T00:00:00.000Z' })).toBeUndefined();
  });

  it('disables once, keeping the first reason', async () => {
    const store = await (await location()).open();
    await store.create(endpoint());
    await store.disable('we_1', 'gone', '2025-01-02T00:00:00.000Z');
    await store.disable('we_1', 'again', '2025-01-03T00:00:00.000Z');
    expect(await store.find('we_1')).toMatchObject({ disabledAt: '2025-01-02T00:00:00.000Z', disabledReason: 'gone' });
  });

  it('records delivery attempts and lists the newest first', async () => {
    const store = await (await location()).open();
    await store.create(endpoint());
    const attempt = { endpointId: 'we_1', eventId: 'evt_1', eventType: 'ai_task.completed' as const, durationMs: 12 };
    await store.recordDelivery({ ...attempt, id: 'wd_1', attempt: 1, outcome: 'failed', httpStatus: 500, error: 'HTTP 500', attemptedAt: '2025-01-01T00:00:01.000Z' });
    await store.recordDelivery({ ...attempt, id: 'wd_2', attempt: 2, outcome: 'succeeded', httpStatus: 200, error: null, attemptedAt: '2025-01-01T00:00:02.000Z' });
    const listed = await store.listDeliveries('we_1', 10);
    expect(listed.map((row) => [row.id, row.attempt, row.outcome, row.httpStatus, row.error])).toEqual([
      ['wd_2', 2, 'succeeded', 200, null],
      ['wd_1', 1, 'failed', 500, 'HTTP 500'],
    ]);
    expect(await store.listDeliveries('we_1', 1)).toHaveLength(1);
  });

  it('stores signing secrets encrypted with the current key and hands them out decrypted', async () => {
    const { open, raw } = await location();
    const store = await open(FIRST_KEY);
    await store.create(endpoint({ previousSecret: 'whsec_zero', previousSecretExpiresAt: '2025-01-02T00:00:00.000Z' }));
    const stored = await raw('we_1');
    expect(stored.secret).toMatch(/^sealed:v1:first:/);
    expect(stored.previous_secret).toMatch(/^sealed:v1:first:/);
    expect(JSON.stringify(stored)).not.toMatch(/whsec_/);
    expect(await store.find('we_1')).toMatchObject({ secret: 'whsec_first', previousSecret: 'whsec_zero' });
    const rotated = await store.rotateSecret({ id: 'we_1', secret: 'whsec_second', previousSecretExpiresAt: '2025-01-03T00:00:00.000Z', at: '2025-01-02T00:00:00.000Z' });
    expect(rotated).toMatchObject({ secret: 'whsec_second', previousSecret: 'whsec_first' });
    expect((await raw('we_1')).secret).toMatch(/^sealed:v1:first:/);
  });

  it('reseals secrets stored before keys were configured, and re-encrypts them with a newer key; opening alone changes nothing', async () => {
    const { open, raw } = await location();
    await (await open()).create(endpoint());
    expect((await raw('we_1')).secret).toBe('whsec_first');
    const firstKey = await open(FIRST_KEY);
    expect((await raw('we_1')).secret).toBe('whsec_first');
    expect(await firstKey.resealSecrets()).toBe(1);
    expect(await firstKey.find('we_1')).toMatchObject({ secret: 'whsec_first' });
    expect((await raw('we_1')).secret).toMatch(/^sealed:v1:first:/);
    const rotatedKeys = await open(`${SECOND_KEY},${FIRST_KEY}`);
    expect(await rotatedKeys.resealSecrets()).toBe(1);
    expect(await rotatedKeys.resealSecrets()).toBe(0);
    expect((await raw('we_1')).secret).toMatch(/^sealed:v1:second:/);
    expect((await rotatedKeys.listFor('acme', 'test'))[0].secret).toBe('whsec_first');
    // The first key can now be retired.
    expect((await (await open(SECOND_KEY)).find('we_1'))?.secret).toBe('whsec_first');
  });

  it('deletes an endpoint with its delivery records, and reports whether there was one', async () => {
    const store = await (await location()).open();
    await store.create(endpoint());
    await store.create(endpoint({ id: 'we_2' }));
    await store.recordDelivery(delivery('wd_1', '2025-01-01T00:00:01.000Z'));
    await store.recordDelivery({ ...delivery('wd_2', '2025-01-01T00:00:01.000Z'), endpointId: 'we_2' });
    expect(await store.delete('we_1')).toBe(true);
    expect(await store.delete('we_1')).toBe(false);
    expect(await store.find('we_1')).toBeUndefined();
    expect(await store.listDeliveries('we_1', 10)).toEqual([]);
    expect((await store.listDeliveries('we_2', 10)).map((row) => row.id)).toEqual(['wd_2']);
  });

  it('prunes delivery records and suppressed events older than one cutoff, redeliveries older than theirs', async () => {
    const store = await (await location()).open();
    await store.create(endpoint());
    await store.recordDelivery(delivery('wd_old', '2025-01-01T00:00:00.000Z'));
    await store.recordDelivery(delivery('wd_new', '2025-02-01T00:00:00.000Z'));
    await store.suppressEvents(ACME_TEST, ['evt_old'], '2025-01-01T00:00:00.000Z');
    await store.suppressEvents(ACME_TEST, ['evt_new'], '2025-02-01T00:00:00.000Z');
    await store.recordRedelivery(redelivery('rd_old', 'evt_old', '2025-01-01T00:00:00.000Z'));
    await store.recordRedelivery(redelivery('rd_kept', 'evt_old', '2025-01-20T00:00:00.000Z'));
    expect(await store.pruneBefore({ records: '2025-01-31T00:00:00.000Z', redeliveries: '2025-01-10T00:00:00.000Z' })).toEqual({ deliveries: 1, suppressedEvents: 1, redeliveries: 1 });
    expect((await store.listDeliveries('we_1', 10)).map((row) => row.id)).toEqual(['wd_new']);
    expect(await store.isSuppressed(ACME_TEST, 'evt_old')).toBe(false);
    expect(await store.isSuppressed(ACME_TEST, 'evt_new')).toBe(true);
    expect(await store.redeliveriesOf(ACME_TEST, ['evt_old'])).toEqual(['rd_kept']);
  });

  it("removes an erased resource's delivery records to its owner's endpoints only", async () => {
    const store = await (await location()).open();
    await store.create(endpoint());
    await store.create(endpoint({ id: 'we_globex', organizationId: 'globex' }));
    await store.create(endpoint({ id: 'we_live', environment: 'live' }));
    const erased = 'evt_task_1.succeeded';
    await store.recordDelivery({ ...delivery('wd_erased', '2025-02-01T00:00:00.000Z'), eventId: erased });
    await store.recordDelivery({ ...delivery('wd_globex', '2025-02-01T00:00:00.000Z'), eventId: erased, endpointId: 'we_globex' });
    await store.recordDelivery({ ...delivery('wd_live', '2025-02-01T00:00:00.000Z'), eventId: erased, endpointId: 'we_live' });
    await store.recordDelivery(delivery('wd_other_event', '2025-02-01T00:00:00.000Z'));
    await store.deleteDeliveriesOfEvents(ACME_TEST, [erased, 'evt_task_1.failed.CANCELED']);
    expect((await store.listDeliveries('we_1', 10)).map((row) => row.id)).toEqual(['wd_other_event']);
    expect((await store.listDeliveries('we_globex', 10)).map((row) => row.id)).toEqual(['wd_globex']);
    expect((await store.listDeliveries('we_live', 10)).map((row) => row.id)).toEqual(['wd_live']);
  });

  it("suppresses an owner's events for that owner only, and again harmlessly", async () => {
    const store = await (await location()).open();
    await store.suppressEvents(ACME_TEST, ['evt_task_1.succeeded'], '2025-02-01T00:00:00.000Z');
    await store.suppressEvents(ACME_TEST, ['evt_task_1.succeeded', 'evt_task_1.failed.CANCELED'], '2025-02-02T00:00:00.000Z');
    expect(await store.isSuppressed(ACME_TEST, 'evt_task_1.succeeded')).toBe(true);
    expect(await store.isSuppressed(ACME_TEST, 'evt_task_1.failed.CANCELED')).toBe(true);
    expect(await store.isSuppressed({ organizationId: 'globex', environment: 'test' }, 'evt_task_1.succeeded')).toBe(false);
    expect(await store.isSuppressed({ organizationId: 'acme', environment: 'live' }, 'evt_task_1.succeeded')).toBe(false);
    expect(await store.isSuppressed(ACME_TEST, 'evt_task_2.succeeded')).toBe(false);
    expect(await store.anySuppressed(ACME_TEST, ['evt_task_2.succeeded', 'evt_task_1.failed.CANCELED'])).toBe(true);
    expect(await store.anySuppressed(ACME_TEST, ['evt_task_2.succeeded'])).toBe(false);
    expect(await store.anySuppressed(ACME_TEST, [])).toBe(false);
  });

  it("finds and forgets an owner's redeliveries of given events only", async () => {
    const store = await (await location()).open();
    const erased = ['evt_task_1.succeeded', 'evt_task_1.failed.CANCELED'];
    await store.recordRedelivery(redelivery('rd_1', erased[0], '2025-02-01T00:00:00.000Z'));
    await store.recordRedelivery(redelivery('rd_2', erased[1], '2025-02-01T00:00:00.000Z'));
    await store.recordRedelivery(redelivery('rd_other_event', 'evt_task_2.succeeded', '2025-02-01T00:00:00.000Z'));
    await store.recordRedelivery(redelivery('rd_globex', erased[0], '2025-02-01T00:00:00.000Z', { organizationId: 'globex', environment: 'test' }));
    await store.recordRedelivery(redelivery('rd_live', erased[0], '2025-02-01T00:00:00.000Z', { organizationId: 'acme', environment: 'live' }));
    expect((await store.redeliveriesOf(ACME_TEST, erased)).sort()).toEqual(['rd_1', 'rd_2']);
    await store.forgetRedeliveries(ACME_TEST, erased);
    expect(await store.redeliveriesOf(ACME_TEST, erased)).toEqual([]);
    expect(await store.redeliveriesOf(ACME_TEST, ['evt_task_2.succeeded'])).toEqual(['rd_other_event']);
    expect(await store.redeliveriesOf({ organizationId: 'globex', environment: 'test' }, erased)).toEqual(['rd_globex']);
    expect(await store.redeliveriesOf({ organizationId: 'acme', environment: 'live' }, erased)).toEqual(['rd_live']);
  });
});
