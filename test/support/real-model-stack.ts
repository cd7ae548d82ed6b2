import { defaultNewsSamplePath, loadNewsSample } from '../../eval/news-sample';
import { AssayHarness } from './assay-harness';
import { ModelProxy } from './model-proxy';
import { ModelServer } from './model-server';

/** The name the model server answers to and Assay offers the model under. */
export const REAL_MODEL = 'smollm2';
/** The organisation the stack's `key` belongs to. */
export const REAL_MODEL_ORGANISATION = 'acme';
// Short answers keep each call to seconds: what these tests check is wiring and planning, never quality.
const MAX_OUTPUT_TOKENS = 64;

export interface RealModelStackOptions {
  /** The context window the model server serves (n_ctx). */
  servedContextTokens: number;
  /** The window ASSAY_MODELS declares: the served one unless a test declares another on purpose. */
  declaredContextTokens?: number;
  concurrency: number;
  /** False where the test starts worker processes of its own, with `modelsSetting`. */
  worker?: boolean;
}

/**
 * A real model, SmolLM2-135M behind llama.cpp's OpenAI-compatible server, with a proxy in front
 * that counts and disturbs its calls, and Assay offering the model through the proxy, with a key
 * to create tasks with.
 */
export class RealModelStack {
  private constructor(
    readonly server: ModelServer,
    readonly proxy: ModelProxy,
    readonly harness: AssayHarness,
    readonly key: string,
    /** ASSAY_MODELS as the harness got it, for worker processes a test starts itself. */
    readonly modelsSetting: string,
  ) {}

  static async start(options: RealModelStackOptions): Promise<RealModelStack> {
    const server = await ModelServer.start({ contextTokens: options.servedContextTokens, alias: REAL_MODEL });
    let proxy: ModelProxy | undefined;
    let harness: AssayHarness | undefined;
    try {
      proxy = await ModelProxy.start(server.baseUrl);
      const modelsSetting = JSON.stringify([
        {
          name: REAL_MODEL,
          base_url: proxy.baseUrl,
          context_tokens: options.declaredContextTokens ?? options.servedContextTokens,
          max_output_tokens: MAX_OUTPUT_TOKENS,
          concurrency: options.concurrency,
          unavailable_wait: '10 minutes',
        },
      ]);
      harness = await AssayHarness.start({ worker: options.worker, env: { ASSAY_MODELS: modelsSetting } });
      const { key } = await harness.issueKey(REAL_MODEL_ORGANISATION, 'test');
      return new RealModelStack(server, proxy, harness, key, modelsSetting);
    } catch (error) {
      // The test never gets a stack that failed to start, so nothing else would stop its processes.
      await harness?.stop();
      await proxy?.close();
      await server.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.harness.stop();
    await this.proxy.close();
    await this.server.stop();
  }
}

/** The articles of the news sample the evaluation uses (eval/data): real prose for the model to summarise. */
export const NEWS_ARTICLES = loadNewsSample(defaultNewsSamplePath(__dirname)).map((item) => item.article);

/** `chars` characters of news text: whole articles, then the start of one more. */
export function newsText(chars: number): string {
  let text = '';
  for (const article of NEWS_ARTICLES) {
    if (text.length >= chars) break;
    text += `${article.slice(0, chars - text.length)}\n\n`;
  }
  return text.trim();
}
