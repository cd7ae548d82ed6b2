import ElkConstructor, { type ELK } from 'elkjs/lib/elk-api';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { NetworkComponent, NetworkLink } from '../../src/sdk';
import { drawingOf, type Drawing } from './drawing';
import { elkGraphOf } from './graph-layout';

/** Copied beside the bundle by scripts/build-console.js. */
const ELK_WORKER_URL = '/console/assets/elk-worker.js';

export type Layout =
  | { state: 'laying-out' }
  | { state: 'drawn'; drawing: Drawing; layoutMs: number }
  | { state: 'failed'; error: string };

/**
 * ELK (1.6 MB of script) runs in a Web Worker: the page stays responsive while a large graph is
 * laid out, and only a reviewer opening an assessment downloads it, not every console user.
 * `broken` fails when the worker does, which ELK's own promises never report: a worker that did
 * not load would otherwise leave the page laying out for ever.
 */
let engine: { elk: ELK; broken: Promise<never> } | undefined;

function layoutEngine(): { elk: ELK; broken: Promise<never> } {
  if (!engine) {
    const worker = new Worker(ELK_WORKER_URL);
    const broken = new Promise<never>((_, reject) => worker.addEventListener('error', (event) => reject(new Error(`ELK's worker failed: ${event.message || `${ELK_WORKER_URL} did not load`}`))));
    engine = { elk: new ElkConstructor({ workerFactory: () => worker }), broken };
  }
  return engine;
}

/**
 * The graph laid out by ELK, once per graph: the page polls the assessment every few seconds and
 * gets equal arrays each time, so the layout is keyed by what it draws rather than by identity.
 */
export function useLayout(components: readonly NetworkComponent[], links: readonly NetworkLink[]): Layout {
  const [layout, setLayout] = useState<Layout>({ state: 'laying-out' });
  const key = useMemo(() => JSON.stringify([components.map((c) => [c.id, c.kind, c.zone]), links.map((l) => [l.from, l.to])]), [components, links]);
  useEffect(() => {
    let live = true;
    setLayout({ state: 'laying-out' });
    const started = performance.now();
    const { elk, broken } = layoutEngine();
    Promise.race([elk.layout(elkGraphOf(components, links)), broken]).then(
      (laidOut) => {
        if (!live) return;
        setLayout({ state: 'drawn', drawing: drawingOf(laidOut, components, links), layoutMs: Math.round(performance.now() - started) });
      },
      (error: unknown) => live && setLayout({ state: 'failed', error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return layout;
}
