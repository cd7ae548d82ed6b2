// Lock repair: the registry mirror lacks the other platforms' optional binaries (e.g. @swc/core-darwin-arm64),
// so `npm install` leaves them out of package-lock.json and `npm ci` then rejects the lock as out of sync.
// Adds a lock entry per missing optional dependency, with os/cpu/libc read from its name so that npm skips it
// on other platforms without fetching it. Run in the repo root after changing dependencies: node scripts/complete-lock.js
const fs = require('fs');
const OS = { darwin: 'darwin', linux: 'linux', win32: 'win32', freebsd: 'freebsd', android: 'android', openharmony: 'openharmony' };
const CPU = { arm64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64' };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
const added = [];
for (const [key, entry] of Object.entries(pkgs)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies || {})) {
    if (pkgs[key ? `${key}/node_modules/${name}` : `node_modules/${name}`] || pkgs[`node_modules/${name}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((p) => OS[p]);
    const cpu = parts.find((p) => CPU[p]);
    if (!/^\d+\.\d+\.\d+$/.test(spec) || !os || !cpu) throw new Error(`cannot infer an entry for ${name}@${spec}`);
    const libc = parts.some((p) => p.startsWith('musl')) ? ['musl'] : os === 'linux' && parts.some((p) => p.startsWith('gnu')) ? ['glibc'] : undefined;
    pkgs[`node_modules/${name}`] = { version: spec, cpu: [cpu], ...(libc && { libc }), optional: true, os: [os] };
    added.push(`${name}@${spec} (${os}/${cpu}${libc ? '/' + libc : ''})`);
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log(`${added.length} entries added:\n  ${added.join('\n  ')}`);
