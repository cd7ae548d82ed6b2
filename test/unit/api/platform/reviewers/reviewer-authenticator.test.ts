import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReviewerAuthenticator } from '../../../../../src/api/platform/reviewers/reviewer-authenticator';
import { AppConfig } from '../../../../../src/common/config/app-config';
import { KeyService } from '../../../../../src/common/keys/key-service';
import { ReviewerService } from '../../../../../src/cli/operator/reviewer-service';
import { Storage } from '../../../../../src/common/storage/storage';

let dir: string;
let storage: Storage;
let service: ReviewerService;
let authenticator: ReviewerAuthenticator;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-reviewers-'));
  storage = await Storage.open(new AppConfig({ DATA_DIR: dir }));
  service = new ReviewerService(storage.reviewers, 'assay', { actor: 'ops' });
  authenticator = new ReviewerAuthenticator(storage.reviewers, 'assay', 0);
});

afterEach(async () => {
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reviewer authentication', () => {
  it('authenticates an added credential as its reviewer, by the secret and by id', async () => {
    const added = await service.add('rita', 'live', ['network']);
    const reviewer = { reviewerId: added.id, name: 'rita', environment: 'live', groups: ['network'] };
    expect(await authenticator.authenticate(added.credential)).toEqual(reviewer);
    expect(await authenticator.byId(added.id)).toEqual(reviewer);
  });

  it('refuses a revoked credential, another brand, a tampered environment and an API key', async () => {
    const added = await service.add('rita', 'test');
    const key = await new KeyService(storage.keys, 'assay').issue('acme', 'test');
    expect(await authenticator.authenticate(added.credential.replace('assay_', 'other_'))).toBeUndefined();
    expect(await authenticator.authenticate(added.credential.replace('_test_', '_live_'))).toBeUndefined();
    expect(await authenticator.authenticate(key.key)).toBeUndefined();
    expect(await service.revoke(added.id)).toBe(true);
    expect(await authenticator.authenticate(added.credential)).toBeUndefined();
    expect(await authenticator.byId(added.id)).toBeUndefined();
  });
});
