import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordedToolPath } from '../../src/common/recorded-tool';
import { freePort } from '../../src/embedded/free-port';
import type { CertificatePaths } from './test-certificates';

const READY_TIMEOUT_MS = 15_000;

export interface ReverseProxy {
  /** `https://localhost:<port>` for each upstream, in the order given. */
  urls: string[];
  stop(): Promise<void>;
}

/**
 * nginx (as a deployment runs it in front of Assay) terminating TLS on a free loopback port for
 * each upstream (`http://127.0.0.1:<port>`), with the certificate given, and passing requests on
 * with X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For. The upstream's own Host header is
 * nginx's default, the upstream address: what the browser asked for arrives only as forwarded.
 */
export async function startReverseProxy(upstreams: string[], certificate: CertificatePaths): Promise<ReverseProxy> {
  const binary = recordedToolPath('nginx-path');
  if (!binary) {
    throw new Error('No nginx: .tools/nginx-path names none that exists. `npm test` provides one: its pretest, `node scripts/ensure-setup.js --for-tests`, finds or installs it and records it there.');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-nginx-'));
  const ports = await Promise.all(upstreams.map(() => freePort()));
  fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, upstreams, ports, certificate));
  const nginx = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(ports.map((port) => listening(port, nginx, () => stderr)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: ports.map((port) => `https://localhost:${port}`), stop };
}

/**
 * One process in the foreground (no master, so no switch to an unprivileged user when run as
 * root), everything it writes under `dir`.
 */
function nginxConfig(dir: string, upstreams: string[], ports: number[], certificate: CertificatePaths): string {
  const servers = upstreams.map(
    (upstream, index) => `
    server {
      listen 127.0.0.1:${ports[index]} ssl;
      server_name localhost;
      ssl_certificate ${certificate.cert};
      ssl_certificate_key ${certificate.key};
      location / {
        proxy_pass ${upstream};
        proxy_http_version 1.1;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      }
    }`,
  );
  return `daemon off;
master_process off;
pid ${path.join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${path.join(dir, 'client_body')};
  proxy_temp_path ${path.join(dir, 'proxy')};
  fastcgi_temp_path ${path.join(dir, 'fastcgi')};
  uwsgi_temp_path ${path.join(dir, 'uwsgi')};
  scgi_temp_path ${path.join(dir, 'scgi')};
${servers.join('\n')}
}
`;
}

/** Resolves once `port` accepts connections; rejects with nginx's own words if it exits first. */
async function listening(port: number, nginx: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (nginx.exitCode !== null || nginx.signalCode !== null) throw new Error(`nginx exited before it listened: ${stderr().trim()}`);
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (connected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port} within ${READY_TIMEOUT_MS} ms: ${stderr().trim()}`);
}
