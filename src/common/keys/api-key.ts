import { CREDENTIAL_ENVIRONMENTS, type CredentialEnvironment } from '../../contract/wire/values';
import { CredentialFormat } from '../credentials/credential-format';
import type { CredentialKind } from '../credentials/credential-kind';

export { CREDENTIAL_ENVIRONMENTS as KEY_ENVIRONMENTS };
export type KeyEnvironment = CredentialEnvironment;

/** A customer's API key: `<brand>_<env>_<32 url-safe chars>`, identifying an organisation in an environment. */
export const API_KEYS: CredentialKind = { format: new CredentialFormat('', 'an API key'), idPrefix: 'key_', noun: 'key' };

export const { generate: generateApiKey, parse: parseApiKey } = API_KEYS.format;
