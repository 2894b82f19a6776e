// The one place markup from the API enters the DOM: the scenario diagram, sanitised with
// DOMPurify's SVG profile (no scripts, no event handlers, no foreign content).
import DOMPurify from 'dompurify';

/** `svg` (an SVG document as text) with everything but plain SVG removed. */
export function sanitizeSvg(svg: string): string {
  return DOMPurify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // Inline <style> would be refused by the CSP anyway; drop it rather than log errors.
    FORBID_TAGS: ['style', 'foreignObject', 'a', 'image', 'use'],
    FORBID_ATTR: ['style', 'href', 'xlink:href'],
  });
}
