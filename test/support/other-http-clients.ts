import { execFile } from 'node:child_process';

// HTTP clients run as child processes, for behaviour that differs between clients (how each copes
// with an answer that arrives while it is still sending the body). Node's fetch runs in a process
// of its own too: sharing the server's event loop, it always read the answer before the server
// closed the connection, which hid the race a caller in another process meets.

export interface ClientAnswer {
  status: number;
  body: string;
}

// No proxies from the environment: the requests must stay on loopback.
const CLIENT_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_PROXY: '*' };

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: CLIENT_ENV, maxBuffer: 1024 * 1024, timeout: 100_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} failed: ${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** POSTs the bytes of `bodyFile` with curl. */
export async function postWithCurl(url: string, bodyFile: string, headers: Record<string, string>): Promise<ClientAnswer> {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const output = await run('curl', ['--silent', '--show-error', '--output', '-', '--write-out', '\n%{http_code}', ...headerArgs, '--data-binary', `@${bodyFile}`, url]);
  const cut = output.lastIndexOf('\n');
  return { status: Number(output.slice(cut + 1)), body: output.slice(0, cut) };
}

// Python's standard library client (httpx is not among the provisioned Python tools).
const PYTHON_POST = `
import json, sys, urllib.error, urllib.request
url, body_file, headers = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
with open(body_file, 'rb') as f:
    request = urllib.request.Request(url, data=f.read(), method='POST', headers=headers)
try:
    with urllib.request.urlopen(request, timeout=60) as response:
        status, body = response.status, response.read()
except urllib.error.HTTPError as error:
    status, body = error.code, error.read()
print(json.dumps({'status': status, 'body': body.decode('utf-8')}))
`;

/** POSTs the bytes of `bodyFile` with Python's urllib. */
export async function postWithPython(url: string, bodyFile: string, headers: Record<string, string>): Promise<ClientAnswer> {
  return JSON.parse(await run('python3', ['-c', PYTHON_POST, url, bodyFile, JSON.stringify(headers)])) as ClientAnswer;
}

const NODE_FETCH = `
const fs = require('node:fs');
const [url, bodyFile, headers, attempts, chunked] = process.argv.slice(1);
const bytes = fs.readFileSync(bodyFile);
const MiB = 1024 * 1024;
function chunks() {
  let offset = 0;
  return new ReadableStream({ pull(controller) { if (offset >= bytes.length) return controller.close(); controller.enqueue(bytes.subarray(offset, (offset += MiB))); } });
}
(async () => {
  const answers = [];
  for (let attempt = 0; attempt < Number(attempts); attempt++) {
    try {
      const body = chunked === 'true' ? chunks() : bytes;
      const response = await fetch(url, { method: 'POST', headers: JSON.parse(headers), body, duplex: 'half' });
      answers.push({ status: response.status, body: await response.text() });
    } catch (error) {
      answers.push({ status: 0, body: String(error.cause?.code ?? error.cause?.message ?? error) });
    }
  }
  process.stdout.write(JSON.stringify(answers));
})();
`;

/**
 * POSTs the bytes of `bodyFile` with Node's fetch, `attempts` times one after another, with
 * Content-Length or (chunked) as a stream of 1 MiB chunks. A request that fails has status 0 and
 * the error's code as its body.
 */
export async function postWithNodeFetch(url: string, bodyFile: string, headers: Record<string, string>, attempts: number, chunked = false): Promise<ClientAnswer[]> {
  return JSON.parse(await run(process.execPath, ['-e', NODE_FETCH, url, bodyFile, JSON.stringify(headers), String(attempts), String(chunked)])) as ClientAnswer[];
}
