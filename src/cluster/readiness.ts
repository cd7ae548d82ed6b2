import * as net from 'node:net';
import { Connection } from '@temporalio/client';
import type { TemporalConnectionOptions } from '../common/temporal/connection-options';

/** Whether something accepts TCP connections on the loopback port. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether the URL answers 2xx. */
export async function answersOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  return response.ok;
}

/**
 * Whether the frontend serves: it accepts connections a moment before it is healthy ("Frontend is
 * not healthy yet"), so this asks it for the system info through the client's own TLS.
 */
export async function frontendServes(options: TemporalConnectionOptions): Promise<boolean> {
  const connection = await Connection.connect({ ...options, connectTimeout: 2_000 });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}
