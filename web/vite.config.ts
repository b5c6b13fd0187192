import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './precompress.ts';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/auth': 'http://127.0.0.1:8080' } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
