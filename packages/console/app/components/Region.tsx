// A titled region of a page: a <section> landmark named by its <h2>.
import type { ComponentChildren } from 'preact';

/** Props of {@link Region}. */
export interface RegionProps {
  /** The heading, and the region's accessible name. */
  title: string;
  /** A unique id stem for the heading (defaults to the title in kebab case). */
  id?: string;
  class?: string;
  children?: ComponentChildren;
}

/** `<section aria-labelledby>` with an `<h2>`. */
export function Region({ title, id, class: className, children }: RegionProps) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section aria-labelledby={headingId} class={className ? `region ${className}` : 'region'}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
