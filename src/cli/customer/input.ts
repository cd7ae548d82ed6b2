import { CliUsageError } from '../exit-codes';

export interface InputSources {
  readStdin(): Promise<string>;
  stdinIsTTY: boolean;
  readFile(path: string): Promise<string>;
}

/** The text to summarise: the file named, or stdin when the name is `-` or absent. */
export async function readTextInput(file: string | undefined, sources: InputSources): Promise<string> {
  if (file === undefined && sources.stdinIsTTY) {
    throw new CliUsageError('Nothing to summarize: name a file, or pipe the text on stdin');
  }
  const text = file === undefined || file === '-' ? await sources.readStdin() : await readNamedFile(file, sources);
  if (text.trim() === '') throw new CliUsageError(`The input ${file && file !== '-' ? file : 'on stdin'} is empty`);
  return text;
}

export async function readJsonObjectFile(file: string, sources: InputSources): Promise<object> {
  const text = await readNamedFile(file, sources);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliUsageError(`${file} must hold a JSON object`);
  }
  return parsed;
}

async function readNamedFile(file: string, sources: InputSources): Promise<string> {
  try {
    return await sources.readFile(file);
  } catch (error) {
    const reason = (error as { code?: unknown }).code ?? (error instanceof Error ? error.message : String(error));
    throw new CliUsageError(`Cannot read ${file}: ${String(reason)}`);
  }
}
