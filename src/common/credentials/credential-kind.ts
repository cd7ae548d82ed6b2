import type { CredentialFormat } from './credential-format';

/** One kind of credential: what its strings look like, how its stored ids start, what operators call one. */
export interface CredentialKind {
  format: CredentialFormat;
  idPrefix: string;
  /** In operator messages: `no active <noun> with id …`, `revoke a <noun> at once`. */
  noun: string;
}
