import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertificatePaths {
  cert: string;
  key: string;
}

export interface Certificates {
  dir: string;
  /** The CA that signed `server` and `client`. */
  ca: CertificatePaths;
  /** For localhost and 127.0.0.1, server use only. */
  server: CertificatePaths;
  /** Signed by `ca`, client use only. */
  client: CertificatePaths;
  /** A client certificate from another CA, which a server trusting `ca` must refuse. */
  stranger: CertificatePaths;
}

/**
 * A PKI of its own made with the openssl CLI in `dir` (which must exist): P-256 keys and the
 * extensions rustls (the worker's TLS) insists on: a CA marked as such, SANs, and extended key
 * usages. `npm run cluster` makes one per run; the TLS tests one per file.
 */
export async function makeCertificates(dir: string, validDays: number): Promise<Certificates> {
  const at = (name: string): CertificatePaths => ({ cert: path.join(dir, `${name}.crt`), key: path.join(dir, `${name}.key`) });
  const days = String(validDays);
  const ca = at('ca');
  const strangerCa = at('stranger-ca');
  await Promise.all([selfSignedCa(ca, 'Assay CA', days), selfSignedCa(strangerCa, 'Stranger CA', days)]);
  const server = at('server');
  const client = at('client');
  const stranger = at('stranger');
  await Promise.all([
    signedLeaf(dir, server, ca, 'localhost', days, ['subjectAltName=DNS:localhost,IP:127.0.0.1', 'extendedKeyUsage=serverAuth']),
    signedLeaf(dir, client, ca, 'assay-worker', days, ['extendedKeyUsage=clientAuth']),
    signedLeaf(dir, stranger, strangerCa, 'assay-worker', days, ['extendedKeyUsage=clientAuth']),
  ]);
  return { dir, ca, server, client, stranger };
}

const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function selfSignedCa(paths: CertificatePaths, name: string, days: string): Promise<void> {
  await run('openssl', [
    'req', '-x509', ...NEW_KEY, '-days', days, '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout', paths.key, '-out', paths.cert,
  ]);
}

async function signedLeaf(dir: string, paths: CertificatePaths, issuer: CertificatePaths, name: string, days: string, extensions: string[]): Promise<void> {
  const request = `${paths.cert}.csr`;
  const extensionFile = `${paths.cert}.ext`;
  fs.writeFileSync(extensionFile, ['basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature', ...extensions].join('\n'));
  await run('openssl', ['req', ...NEW_KEY, '-subj', `/CN=${name}`, '-keyout', paths.key, '-out', request]);
  await run('openssl', [
    'x509', '-req', '-in', request, '-CA', issuer.cert, '-CAkey', issuer.key, '-set_serial', String(Date.now()),
    '-days', days, '-extfile', extensionFile, '-out', paths.cert,
  ], { cwd: dir });
}
