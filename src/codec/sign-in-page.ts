/** The page has no script, no style and no other origin: it posts its forms to the codec and nothing else. */
export const SIGN_IN_PAGE_CSP = ["default-src 'none'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');

export const SIGN_IN_PATHS = { page: '/codec/', signIn: '/codec/sign-in', signOut: '/codec/sign-out' } as const;

export type SignInState = { signedInUntil: Date } | { signedInUntil?: undefined; refused: boolean; retryAfterSeconds?: number };

/**
 * The codec's one page: signs this browser in with the operator credential, so that the Temporal
 * UI's codec calls (with cross-origin credentials included) carry the sign-in cookie; or, signed
 * in, says until when and signs out.
 */
export function signInPage(state: SignInState): string {
  const body = state.signedInUntil
    ? `<p>This browser is signed in until ${state.signedInUntil.toISOString()}: the Temporal UI shows Assay's payloads in plaintext when its codec settings include cross-origin credentials.</p>
<form method="post" action="${SIGN_IN_PATHS.signOut}"><button type="submit">Sign out</button></form>`
    : `${refusal(state)}<p>Sign in with the operator credential to read Assay's payloads in plaintext in the Temporal UI from this browser for 12 hours.</p>
<form method="post" action="${SIGN_IN_PATHS.signIn}">
<label for="credential">Operator credential</label>
<input id="credential" name="credential" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Assay codec: sign in</title>
</head>
<body>
<h1>Assay codec</h1>
${body}
</body>
</html>
`;
}

function refusal(state: { refused: boolean; retryAfterSeconds?: number }): string {
  if (state.retryAfterSeconds !== undefined) return `<p role="alert">Too many failed sign-ins from here; try again in ${state.retryAfterSeconds} s.</p>\n`;
  return state.refused ? '<p role="alert">That is not the operator credential.</p>\n' : '';
}
