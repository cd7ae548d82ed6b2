// Errors that mean the database could not be reached or could not answer now, as opposed to a
// query it refused: the request may succeed if retried shortly, so the API answers 503.

// Node's socket errors, as pg reports a server it cannot connect to or that went away.
const SOCKET_ERROR_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATE class 08 (connection exception), the server shutting down or starting (57P01-57P03),
// and no connection slot left (53300).
const POSTGRES_UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;

// pg and pg-pool give their own connection failures no code, only these messages (pg 8).
const POSTGRES_UNAVAILABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/;

// SQLite: another connection held the lock longer than busy_timeout.
const SQLITE_LOCK_CODE = /^SQLITE_(BUSY|LOCKED)/;

/**
 * True when the error means PostgreSQL or SQLite could not answer now; never for a query it refused.
 * Read by shape, not instanceof: the socket errors come from Node's own realm.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  // An AggregateError: one failure per address tried.
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  if (typeof code === 'string') return SOCKET_ERROR_CODES.has(code) || POSTGRES_UNAVAILABLE_STATE.test(code) || SQLITE_LOCK_CODE.test(code);
  return typeof message === 'string' && POSTGRES_UNAVAILABLE_MESSAGE.test(message);
}
