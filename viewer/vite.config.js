// Vite configuration of the replay viewer: one HTML file with the script and styles inlined
// (the page must open from disk with no server and no network).
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig({
  base: './',
  logLevel: 'warn',
  plugins: [viteSingleFile()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
});
