import { newPrefixedId } from '../ids/prefixed-ulid';
import type { CredentialEnvironment } from '../../contract/wire/values';
import { hashCredential } from './credential-format';
import type { CredentialKind } from './credential-kind';
import { defaultOperatorActor } from './operator-actor';

export interface CredentialServiceOptions {
  /** Named in the audit log for every change made through the service (default: the OS user). */
  actor?: string;
  clock?: () => Date;
}

/** A new credential: the secret, for its one showing, and what is stored of it. */
export interface MintedCredential {
  secret: string;
  id: string;
  prefix: string;
  hash: Buffer;
}

/** What listings show of a stored credential: everything but its hash. */
export type CredentialSummary<Stored extends { hash: Buffer }> = Omit<Stored, 'hash'>;

/**
 * What the operator-side lifecycle of every kind shares: who and when for the audit log, minting a
 * credential whose secret exists only in the return value of the issuing call, and listing without
 * hashes. Each kind's service adds its own decisions (organisations and rotation, names and groups).
 */
export abstract class CredentialService<Stored extends { hash: Buffer }, Store extends { list(): Promise<Stored[]> }> {
  protected readonly actor: string;
  protected readonly clock: () => Date;
  /** Each kind's service names its kind here rather than passing it up, so it needs no constructor of its own. */
  protected abstract readonly kind: CredentialKind;

  constructor(
    protected readonly store: Store,
    private readonly brand: string,
    options: CredentialServiceOptions = {},
  ) {
    this.actor = options.actor ?? defaultOperatorActor();
    this.clock = options.clock ?? (() => new Date());
  }

  async list(): Promise<CredentialSummary<Stored>[]> {
    return (await this.store.list()).map(({ hash: _hash, ...summary }) => summary);
  }

  protected mint(environment: CredentialEnvironment): MintedCredential {
    const secret = this.kind.format.generate(this.brand, environment);
    return { secret, id: newPrefixedId(this.kind.idPrefix), prefix: this.kind.format.visiblePrefix(secret), hash: hashCredential(secret) };
  }
}
