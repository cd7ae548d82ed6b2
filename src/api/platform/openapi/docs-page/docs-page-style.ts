/** The docs page's only stylesheet, inline so the page needs nothing else (its hash goes into the CSP). */
export const DOCS_PAGE_STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #dde2ea; --panel: #f6f8fb; --accent: #2450b2; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
header { padding: 28px 40px 20px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { margin: 0 0 6px; font-size: 26px; }
header .version { font-size: 14px; font-weight: 500; color: var(--muted); margin-left: 8px; }
header p { margin: 4px 0; max-width: 80ch; color: var(--muted); }
.layout { display: grid; grid-template-columns: 300px 1fr; }
nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; padding: 20px 16px 40px 24px; border-right: 1px solid var(--line); }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 18px 0 6px; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li a { display: flex; gap: 8px; align-items: baseline; padding: 3px 4px; border-radius: 4px; color: var(--ink); text-decoration: none; font-size: 13px; }
nav li a:hover { background: var(--panel); }
nav code { font-size: 12.5px; word-break: break-all; }
main { padding: 8px 40px 60px; min-width: 0; }
section.tag > h2 { font-size: 22px; margin: 36px 0 4px; padding-top: 8px; }
section.tag > p { color: var(--muted); margin-top: 0; }
article.operation { border: 1px solid var(--line); border-radius: 8px; padding: 18px 22px; margin: 18px 0; }
article.operation h3 { margin: 0; font-size: 17px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
article.operation h3 code { font-size: 16px; }
article.operation h4 { margin: 18px 0 6px; font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
article.operation h5 { margin: 12px 0 4px; font-size: 14px; }
.summary { font-weight: 600; margin: 6px 0 2px; }
.auth { font-size: 13px; color: var(--muted); }
.method { display: inline-block; min-width: 46px; text-align: center; font: 700 11.5px/1.9 ui-monospace, SFMono-Regular, Menlo, monospace; color: #fff; border-radius: 4px; padding: 0 6px; }
.method.get { background: #1f7a4d; } .method.post { background: #2450b2; } .method.put, .method.patch { background: #8a5a00; } .method.delete { background: #b4232c; }
.status { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 700; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; margin: 4px 0 8px; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 6px 8px; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
td code, p code, li code { background: var(--panel); padding: 1px 4px; border-radius: 3px; font-size: 12.5px; }
.req { color: #b4232c; font-size: 12px; font-weight: 600; }
details { margin: 6px 0; }
summary { cursor: pointer; color: var(--accent); font-size: 13.5px; }
pre { background: #0f1623; color: #e6edf3; padding: 12px 14px; border-radius: 6px; overflow: auto; font-size: 12.5px; line-height: 1.45; }
a { color: var(--accent); }
@media (max-width: 900px) { .layout { display: block; } nav { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } main, header { padding-left: 18px; padding-right: 18px; } }
`;
