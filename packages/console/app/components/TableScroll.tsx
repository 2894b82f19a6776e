// A table that scrolls sideways on narrow screens. A scrolling region must be reachable by
// keyboard (WCAG 2.1.1), so the wrapper is focusable and named after the table.
import type { ComponentChildren } from 'preact';

/** Props of {@link TableScroll}. */
export interface TableScrollProps {
  /** What the table lists, for the focusable region's name (usually its caption). */
  label: string;
  children: ComponentChildren;
}

/** A keyboard-scrollable wrapper around one table. */
export function TableScroll({ label, children }: TableScrollProps) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
