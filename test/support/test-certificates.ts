import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeCertificates, type Certificates } from '../../src/cluster/certificates';

export type { CertificatePaths } from '../../src/cluster/certificates';

export interface TestCertificates extends Certificates {
  remove(): void;
}

/** A throwaway PKI (src/cluster/certificates.ts) in a temp directory, valid for one day. */
export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pki-'));
  const certificates = await makeCertificates(dir, 1);
  return { ...certificates, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
