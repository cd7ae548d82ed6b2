import * as fs from 'node:fs';
import * as path from 'node:path';

// What would point a Temporal client at another cluster, or secure it for one.
const REMOTE_SETTINGS = /^TEMPORAL_(PROFILE(_SANDBOX|_PRODUCTION)?|ADDRESS_(SANDBOX|PRODUCTION)|API_KEY|NAMESPACE|TLS|TLS_.*|GRPC_META_.*)$/;

/**
 * The environment of the worker and the API that `npm start` runs beside its own dev server: they
 * reach it in plaintext, whatever Temporal profile or TLS settings this shell has for other
 * clusters (every Temporal client reads ~/.config/temporalio/temporal.toml's default profile).
 * Their profile file names only the local address; envconfig cannot be told to read no file.
 */
export function localTemporalEnv(env: NodeJS.ProcessEnv, address: string, dataDir: string): NodeJS.ProcessEnv {
  const profileFile = path.join(dataDir, 'temporal-local.toml');
  fs.writeFileSync(profileFile, `# Written by npm start or npm run cluster for their workers and API instances.\n[profile.default]\naddress = ${JSON.stringify(address)}\n`);
  const kept = Object.entries(env).filter(([name]) => !REMOTE_SETTINGS.test(name));
  return { ...Object.fromEntries(kept), TEMPORAL_ADDRESS: address, TEMPORAL_CONFIG_FILE: profileFile };
}
