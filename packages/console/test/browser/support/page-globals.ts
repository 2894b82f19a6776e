// The few browser globals the tests read inside pages (page.evaluate callbacks run in the
// browser). The package type-checks against Node's globals, without the DOM library, so
// these callbacks name what they use here instead.

/** An element as the tests see it. */
export interface PageElement {
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
}

/** The browser globals the tests use. */
export interface PageGlobals {
  readonly document: {
    readonly activeElement: PageElement | null;
    readonly body: PageElement & { readonly innerText: string };
    readonly images: ArrayLike<PageElement>;
    readonly cookie: string;
    querySelectorAll(selector: string): ArrayLike<PageElement>;
    querySelector(selector: string): { readonly textContent: string | null } | null;
  };
  readonly sessionStorage: { getItem(key: string): string | null; readonly length: number };
  readonly localStorage: object;
  readonly location: { readonly href: string };
  readonly performance: {
    now(): number;
    readonly timeOrigin: number;
    getEntriesByType(
      type: 'resource',
    ): readonly { readonly name: string; readonly responseEnd: number }[];
  };
  /** Watches the DOM (only `observe` is used). */
  readonly MutationObserver: new (callback: () => void) => {
    observe(target: PageElement, options: Record<string, boolean>): void;
  };
  /** What the text timeline notes, by selector. */
  __textLogs?: Record<string, { readonly at: number; readonly text: string }[]>;
  getComputedStyle(element: PageElement): {
    readonly outlineStyle: string;
    readonly outlineWidth: string;
    readonly outlineColor: string;
    readonly boxShadow: string;
  };
}
