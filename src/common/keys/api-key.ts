import { CREDENTIAL_ENVIRONMENTS, CredentialFormat, type CredentialEnvironment } from '../credentials/credential-format';

export { CREDENTIAL_ENVIRONMENTS as KEY_ENVIRONMENTS };
export type KeyEnvironment = CredentialEnvironment;

/** A customer's API key: `<brand>_<env>_<32 url-safe chars>`. */
export const API_KEY_FORMAT = new CredentialFormat('', 'an API key');
export const { generate: generateApiKey, parse: parseApiKey } = API_KEY_FORMAT;
