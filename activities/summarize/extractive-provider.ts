import { summarizeExtractive } from './extractive';
import type { SummarizationProvider, SummarizeOptions } from './provider';

/** The offline default: picks the most central sentences of the text itself. */
export class ExtractiveProvider implements SummarizationProvider {
  readonly name = 'extractive';
  readonly inProcess = true;

  async summarize(text: string, options: SummarizeOptions): Promise<string> {
    return summarizeExtractive(text, { maxSentences: options.maxSentences });
  }
}
