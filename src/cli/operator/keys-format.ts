import type { RecordedAuditEntry } from '../../common/storage/key-store';
import type { KeySummary } from '../../common/keys/key-service';

/** One `assay keys list` line: enough to recognise and manage a key, never enough to use it. */
export function formatKeyLine(key: KeySummary, now: Date): string {
  return [
    key.id,
    key.prefix,
    `org=${key.organizationId}`,
    `env=${key.environment}`,
    `created ${key.createdAt}`,
    `last used ${key.lastUsedAt ?? 'never'}`,
    keyState(key, now),
  ].join('  ');
}

function keyState(key: KeySummary, now: Date): string {
  if (key.revokedAt !== null) return `revoked ${key.revokedAt}`;
  if (key.expiresAt === null) return 'active';
  return Date.parse(key.expiresAt) <= now.getTime() ? `expired ${key.expiresAt}` : `active, expires ${key.expiresAt}`;
}

/** One `assay keys audit` line: when, who, what, which key. */
export function formatAuditLine(entry: RecordedAuditEntry): string {
  const details = Object.keys(entry.details).length > 0 ? `  ${JSON.stringify(entry.details)}` : '';
  return `${entry.at}  ${entry.actor}  ${entry.action}  ${entry.keyId}  org=${entry.organizationId}  env=${entry.environment}${details}`;
}
