import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/store-contract.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
