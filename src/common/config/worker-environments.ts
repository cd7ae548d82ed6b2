import { z } from 'zod';
import type { KeyEnvironment } from '../keys/api-key';

const BY_NAME: Record<string, KeyEnvironment> = { sandbox: 'test', production: 'live' };

/** WORKER_ENVIRONMENTS, "sandbox,production" or either alone, as the key environments whose namespaces the worker polls. */
export const workerEnvironments = z.string().transform((value, context) => {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(name in BY_NAME));
  if (unknown.length > 0) {
    context.addIssue({ code: 'custom', message: 'must be "sandbox", "production" or "sandbox,production"' });
    return z.NEVER;
  }
  return [...new Set(names.map((name) => BY_NAME[name]))] as readonly KeyEnvironment[];
});
