// Vite: the three pages of the fixture, production build into out/vite.
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  build: {
    outDir: 'out/vite',
    emptyOutDir: true,
    rollupOptions: { input: { main: 'index.html', bare: 'bare.html', synced: 'synced.html' } },
  },
});
