// Scenario files bundled as text (esbuild's `text` loader, Wrangler's `Text` rule, …).
declare module '*.yaml' {
  const text: string;
  export default text;
}
