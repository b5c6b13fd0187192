import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { firstScreenChunk } from './first-screen-chunks.ts';
import { precompress } from './precompress.ts';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: { manualChunks: firstScreenChunk(import.meta.dirname) },
      onwarn(warning, warn) {
        // A package index's chunk is empty when the first screen uses all of the package the app
        // uses (zod): nothing imports it, nothing downloads it.
        if (warning.code === 'EMPTY_BUNDLE' && /"lazy-/.test(warning.message)) return;
        warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/auth': 'http://127.0.0.1:8080' } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
