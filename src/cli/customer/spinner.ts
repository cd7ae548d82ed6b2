import type { TextOutput } from '../command-runner';

export interface Spinner {
  /** Shows the resource's latest status beside the elapsed time. */
  update(status: string): void;
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_INTERVAL_MS = 100;
const CLEAR_LINE = '\r\x1b[2K';

/** A one-line progress indicator with elapsed time; silent unless the stream is a terminal, so pipes and logs stay clean. */
export function startSpinner(stream: TextOutput, label: string): Spinner {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  const startedAt = Date.now();
  let status = '';
  let frame = 0;
  const render = (): void => {
    const elapsed = ((Date.now() - startedAt) / 1000).toFixed(1);
    stream.write(`${CLEAR_LINE}${FRAMES[frame % FRAMES.length]} ${label}${status ? ` (${status})` : ''} ${elapsed}s`);
    frame += 1;
  };
  render();
  let timer: ReturnType<typeof setInterval> | undefined = setInterval(render, FRAME_INTERVAL_MS);
  return {
    update: (latest) => {
      status = latest;
    },
    stop: () => {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      stream.write(CLEAR_LINE);
    },
  };
}
