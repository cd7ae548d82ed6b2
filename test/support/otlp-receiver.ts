import * as http from 'node:http';
import * as otlpRoot from '@opentelemetry/otlp-transformer/build/src/generated/root';
import { eventually } from './eventually';
import { closeNow, listenOnLoopback } from './loopback-server';

/** One span as a trace backend stores it, with the service.name of the process that exported it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface StaticMessage {
  decode(bytes: Uint8Array): object;
  toObject(message: object, options: { longs: StringConstructor }): unknown;
  encode(message: object): { finish(): Uint8Array };
  create(properties: object): object;
}
// protobufjs static code, though its declaration file calls it a reflection Root.
const traceService = (otlpRoot as unknown as { opentelemetry: { proto: { collector: { trace: { v1: Record<string, StaticMessage> } } } } }).opentelemetry.proto.collector.trace.v1;
const ExportTraceServiceRequest = traceService.ExportTraceServiceRequest;
const ExportTraceServiceResponse = traceService.ExportTraceServiceResponse;

interface DecodedValue {
  stringValue?: string;
  intValue?: string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface DecodedKeyValue {
  key: string;
  value?: DecodedValue;
}
interface DecodedRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: DecodedKeyValue[] };
    scopeSpans?: Array<{ spans?: Array<{ traceId: Uint8Array; spanId: Uint8Array; parentSpanId?: Uint8Array; name: string; kind: number; attributes?: DecodedKeyValue[] }> }>;
  }>;
}

/**
 * A trace backend's front door for tests: OTLP/HTTP with protobuf bodies (the exporters' default
 * protocol) on POST /v1/traces, decoded with OpenTelemetry's own message definitions.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: http.Server;
  private port = 0;

  async listen(): Promise<string> {
    this.server = http.createServer((request, response) => this.handle(request, response));
    this.port = await listenOnLoopback(this.server);
    return this.tracesUrl();
  }

  tracesUrl(): string {
    return `http://127.0.0.1:${this.port}/v1/traces`;
  }

  /** The spans of one trace, once `done` holds for them. */
  trace(traceId: string, done: (spans: ReceivedSpan[]) => boolean, timeoutMs = 30_000): Promise<ReceivedSpan[]> {
    return eventually(async () => this.spans.filter((span) => span.traceId === traceId), done, `the spans of trace ${traceId}`, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.server) await closeNow(this.server);
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || request.headers['content-type'] !== 'application/x-protobuf') {
        response.writeHead(415).end();
        return;
      }
      const decoded = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(Buffer.concat(chunks)), { longs: String }) as DecodedRequest;
      for (const resourceSpans of decoded.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            this.spans.push({
              service,
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(ExportTraceServiceResponse.encode(ExportTraceServiceResponse.create({})).finish());
    });
  }
}

function hex(bytes: Uint8Array | undefined): string {
  return bytes ? Buffer.from(bytes).toString('hex') : '';
}

function attributesOf(list: DecodedKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue]));
}
