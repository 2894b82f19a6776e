// What a browser context did that the security tests judge: every URL it requested or
// navigated to, every dialog (an injected `alert` would open one), and every
// Content-Security-Policy violation the pages reported.
import type { BrowserContext } from 'playwright-core';

/** The record of one browser context. */
export interface PageWatch {
  readonly urls: readonly string[];
  readonly dialogs: readonly string[];
  readonly cspViolations: readonly string[];
  /** Console errors and uncaught page errors. */
  readonly errors: readonly string[];
}

/** Reports `securitypolicyviolation` events to the test through an exposed binding. */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) => {
  window.__reportCspViolation(event.violatedDirective + ' ' + event.blockedURI);
});`;

/** Starts watching every page of `context` (call before opening pages). */
export async function watchContext(context: BrowserContext): Promise<PageWatch> {
  const watch = { urls: [] as string[], dialogs: [] as string[], cspViolations: [] as string[] };
  const errors: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, violation: string) => {
    watch.cspViolations.push(violation);
  });
  await context.addInitScript({ content: REPORT_VIOLATIONS });
  context.on('request', (request) => watch.urls.push(request.url()));
  context.on('page', (page) => {
    page.on('framenavigated', (frame) => watch.urls.push(frame.url()));
    page.on('dialog', (dialog) => {
      watch.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      errors.push(message.text());
      if (message.text().includes('Content Security Policy'))
        watch.cspViolations.push(message.text());
    });
  });
  return { ...watch, errors };
}
