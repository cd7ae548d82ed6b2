import type { AppConfig } from '../../src/common/config/app-config';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { KeyService } from '../../src/common/keys/key-service';
import { openKeyStore } from '../../src/common/storage/open-key-store';

/** Issues a key straight into the key store `config` names, as `assay keys issue` would, for an API started without the harness. */
export async function issueKeyInStore(config: AppConfig, org: string, env: KeyEnvironment): Promise<string> {
  const store = await openKeyStore(config);
  try {
    return (await new KeyService(store, config.values.API_KEY_BRAND, { actor: 'test' }).issue(org, env)).key;
  } finally {
    await store.close();
  }
}
