import type { KeyEnvironment } from '../keys/api-key';
import { sameConnection, type TemporalConnectionOptions, type TemporalConnections } from './connection-options';

/** A connection per environment, made once when both environments have the same settings. */
export function perEnvironment<C>(connections: TemporalConnections, connect: (options: TemporalConnectionOptions) => C): Record<KeyEnvironment, C> {
  const test = connect(connections.test);
  return { test, live: sameConnection(connections) ? test : connect(connections.live) };
}

/** Each connection once, for closing them. */
export function distinct<C>(perEnvironment: Record<KeyEnvironment, C>): C[] {
  return [...new Set(Object.values(perEnvironment))];
}
