/**
 * The console's one page: everything it runs and shows comes from its own origin (no CDN), and the
 * policy allows nothing else: no inline script or style, no other origin to connect to or frame it.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Assay console</title>
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/app.css">
<script type="module" src="/console/assets/app.js"></script>
</head>
<body>
<div id="app"><p class="loading">Loading the console…</p></div>
</body>
</html>
`;
