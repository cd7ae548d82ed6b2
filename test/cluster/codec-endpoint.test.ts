import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { promisify } from 'node:util';
import { CHAOS_ORGANIZATION } from '../../chaos/stack/chaos-stack';
import { CLUSTER_NAMESPACES } from '../../src/cluster/cluster';
import { taskWorkflowId } from '../../src/contract';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { openBrowser, type Browser } from '../browser/chromium';
import { CIPHERTEXT_SHOWN, openWorkflowPage, signInAtCodec, workflowPageUrl } from '../browser/temporal-ui-codec';
import { ClusterStack } from '../support/cluster-stack';
import { bearer, http } from '../support/http';

const MARKER = `marker-${Date.now().toString(36)}-on-the-cluster`;

let stack: ClusterStack;
let browser: Browser;
let workflowId: string;
let workflowPage: string;

beforeAll(async () => {
  stack = await ClusterStack.start({ label: 'codec' });
  const created = await http(`${stack.baseUrl}/v1/ai/tasks`, {
    method: 'POST',
    headers: { ...bearer(stack.apiKey), prefer: 'wait=30' },
    json: { task_type: 'summarize', input: { text: `${MARKER} is in the text. The council approved the plan.` } },
  });
  expect(created.body).toMatchObject({ status: 'succeeded' });
  workflowId = taskWorkflowId(CHAOS_ORGANIZATION, created.body.id);
  workflowPage = await workflowPageUrl(stack.cluster.uiUrl, stack.cluster.connectionOptions, CLUSTER_NAMESPACES.sandbox, workflowId);
  browser = await openBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the codec endpoint of npm run cluster', () => {
  it('decodes `temporal workflow show` in a shell that read cluster.env', async () => {
    // As the summary says: `set -a; . cluster.env; set +a`, then the `temporal` CLI.
    const script = 'set -a; . "$1"; set +a; exec "$2" workflow show --namespace "$3" --workflow-id "$4" --output json';
    const args = [stack.cluster.envFile, resolveTemporalCli(), CLUSTER_NAMESPACES.sandbox, workflowId];
    const { stdout } = await promisify(execFile)('sh', ['-c', script, 'sh', ...args], { env: { PATH: process.env.PATH ?? '', HOME: stack.dir }, maxBuffer: 16 * 1024 * 1024 });
    const data = [...stdout.matchAll(/"data": "([A-Za-z0-9+/=]*)"/g)].map((match) => Buffer.from(match[1], 'base64').toString('utf8'));
    expect(data.join('\n')).toContain(MARKER);
    const envFile = fs.readFileSync(stack.cluster.envFile, 'utf8');
    expect(envFile).toContain(`TEMPORAL_CODEC_ENDPOINT='${stack.cluster.codecUrl}'`);
    expect((fs.statSync(stack.cluster.envFile).mode & 0o777).toString(8)).toBe('600');
  });

  it("has its UI show a task's ciphertext to a browser that is not signed in, and its plaintext once it is", async () => {
    const before = await openWorkflowPage(browser.page, workflowPage, stack.cluster.codecUrl);
    expect(before.decodeStatus).toBe(401);
    expect(before.shown).not.toContain(MARKER);
    expect(before.shown).toMatch(CIPHERTEXT_SHOWN);

    // No settings in the browser: the UI server's config includes credentials in its codec calls.
    await signInAtCodec(browser.page, stack.cluster.codecUrl, fs.readFileSync(stack.cluster.codecCredentialFile, 'utf8').trim());
    const after = await openWorkflowPage(browser.page, workflowPage, stack.cluster.codecUrl);
    expect(after.decodeStatus).toBe(200);
    expect(after.shown).toContain(MARKER);
  });
});
