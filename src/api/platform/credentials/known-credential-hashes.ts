// A credential's created_at is written by the process that issued it (the CLI, another machine):
// each refresh reads again the minute before the newest one it has seen, so a clock a little
// behind never hides a new credential.
const CLOCK_OVERLAP_MS = 60_000;

export interface CreatedCredential {
  hash: Buffer;
  createdAt: string;
}

/**
 * The hashes of every credential of one kind in the store, revoked or not, as of at most
 * `freshnessMs` ago: what tells a real credential from a made-up one without a lookup per request.
 * Read in full once, then only what was created since, at most once per `freshnessMs`, and only
 * when asked about a hash it does not hold: the store sees a bounded rate however many unknown
 * credentials arrive. About 100 bytes per credential.
 */
export class KnownCredentialHashes {
  private readonly hashes = new Set<string>();
  private newestSeen = Number.NEGATIVE_INFINITY;
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private refreshing?: Promise<void>;

  constructor(
    private readonly createdSince: (since?: string) => Promise<CreatedCredential[]>,
    private readonly freshnessMs = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async has(hash: Buffer): Promise<boolean> {
    const key = hash.toString('base64');
    if (!this.hashes.has(key)) await this.refresh();
    return this.hashes.has(key);
  }

  private refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (this.now() - this.refreshedAt < this.freshnessMs) return Promise.resolve();
    // A failed read counts as a refresh too: a store that is down is not asked again at once.
    this.refreshing = this.load().finally(() => {
      this.refreshedAt = this.now();
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const since = Number.isFinite(this.newestSeen) ? new Date(this.newestSeen - CLOCK_OVERLAP_MS).toISOString() : undefined;
    for (const { hash, createdAt } of await this.createdSince(since)) {
      this.hashes.add(hash.toString('base64'));
      this.newestSeen = Math.max(this.newestSeen, Date.parse(createdAt));
    }
  }
}
