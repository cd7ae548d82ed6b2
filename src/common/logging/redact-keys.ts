// Anything after an environment marker that could be (part of) a key's secret, wherever it appears:
// URLs, error messages, serialized headers. Over-redacting a log line costs nothing.
const KEY_SECRET = /(_(?:test|live)_)[A-Za-z0-9_-]{6,}/g;
// The credential of any Authorization-style value, whatever its shape, including non-key garbage
// a client may have sent by mistake (which could be another system's secret).
const SCHEME_CREDENTIAL = /\b(Bearer|Basic)(\s+)[^\s"'\\,;]+/gi;

/** Removes API key secrets and Authorization credentials from text bound for a log or an error. */
export function redactApiKeys(text: string): string {
  return text.replace(KEY_SECRET, '$1[redacted]').replace(SCHEME_CREDENTIAL, '$1$2[redacted]');
}
