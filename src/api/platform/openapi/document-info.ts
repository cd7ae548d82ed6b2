import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../../common/repo-root';
import type { DocumentInfo } from './build-openapi-document';

/** Title and description of the document; its version is the package's. */
export function documentInfo(): DocumentInfo {
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot(__dirname), 'package.json'), 'utf8')) as { version: string };
  return {
    title: 'Assay API',
    version,
    description:
      'Durable AI text tasks and network-architecture assessments. Create work with POST, then poll GET until it is final (`succeeded`/`failed` for tasks, `completed` for assessments). Paths begin with `/v1`.',
  };
}
