// A scenario's statechart (`GET /v1/scenarios/{id}/diagram`), sanitised, optionally lit
// with where a run has been (classes `visited`, `skipped`, `current`, `taken`).
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { ErrorAlert } from './ErrorAlert.js';
import { sanitizeSvg } from './sanitize-svg.js';
import type { StatechartMarks } from '../pages/run/statechart-marks.js';

/** Props of {@link ScenarioDiagram}. */
export interface ScenarioDiagramProps {
  scenarioId: string;
  /** Where a run has been; none for a plain diagram. */
  marks?: StatechartMarks | null;
}

const MARK_CLASSES = ['visited', 'skipped', 'current', 'taken'];

/** Applies `marks` to the SVG inside `root` (clearing earlier marks first). */
function applyMarks(root: HTMLElement, marks: StatechartMarks | null | undefined): void {
  for (const element of root.querySelectorAll('.visited, .skipped, .current, .taken')) {
    element.classList.remove(...MARK_CLASSES);
  }
  for (const element of root.querySelectorAll('[aria-current]')) {
    element.removeAttribute('aria-current');
  }
  if (!marks) return;
  const node = (id: string) =>
    [...root.querySelectorAll<SVGGElement>('g.node')].find((element) => element.id === id);
  for (const id of marks.visited) node(id)?.classList.add('visited');
  for (const id of marks.skipped) node(id)?.classList.add('skipped');
  if (marks.current !== null) {
    const current = node(marks.current);
    current?.classList.add('current');
    current?.setAttribute('aria-current', 'step');
  }
  for (const edge of root.querySelectorAll<SVGGElement>('g.edge')) {
    const from = edge.getAttribute('data-from');
    const to = edge.getAttribute('data-to');
    if (!marks.taken.some((taken) => taken.from === from && taken.to === to)) continue;
    edge.classList.add('taken');
    if (to !== null && to.startsWith('ending_')) node(to)?.classList.add('visited');
  }
}

/**
 * Scrolls the diagram's frame so `target` sits in its middle: diagrams are larger than the
 * frame, and the step a run waits on (or the start) is what a reader looks for first.
 */
function reveal(frame: HTMLElement, target: Element): void {
  const box = target.getBoundingClientRect();
  const view = frame.getBoundingClientRect();
  frame.scrollTop += box.top - view.top - (view.height - box.height) / 2;
  frame.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
}

/** The diagram of a scenario. */
export function ScenarioDiagram({ scenarioId, marks = null }: ScenarioDiagramProps) {
  const [svg, setSvg] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    setSvg(null);
    setError(null);
    api.text(`/v1/scenarios/${encodeURIComponent(scenarioId)}/diagram`, controller.signal).then(
      (text) => setSvg(sanitizeSvg(text)),
      (failure: unknown) => !controller.signal.aborted && setError(failure),
    );
    return () => controller.abort();
  }, [scenarioId]);

  const revealed = useRef<string | null>(null);
  useLayoutEffect(() => {
    const frame = container.current;
    if (!frame) return;
    applyMarks(frame, marks);
    // Reveal once per step (and on a new drawing), not on every live update: the reader
    // may have scrolled away since.
    const focus = marks?.current ?? 'run_start';
    const key = `${svg === null ? '' : String(svg.length)}:${focus}`;
    if (revealed.current === key) return;
    const target = [...frame.querySelectorAll('g.node')].find((element) => element.id === focus);
    if (target) {
      reveal(frame, target);
      revealed.current = key;
    }
  }, [svg, marks]);

  if (error !== null) return <ErrorAlert error={error} />;
  if (svg === null) return <p role="status">Loading the diagram…</p>;
  return (
    <div
      class="diagram"
      ref={container}
      role="group"
      aria-label={`Diagram of ${scenarioId}`}
      tabIndex={0}
      // The only raw markup of the console: DOMPurify-sanitised SVG (sanitize-svg.ts).
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
