// Builds the renderer into dist/renderer, where the browser host serves it and the Electron shell
// loads it from app://. Relative asset paths (base './') work under both origins.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => {
  // A build is always production React (runtime and JSX transform alike), even when started from a
  // test runner whose NODE_ENV is 'test', so what the tests drive is what ships.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    base: './',
    plugins: [react()],
    build: {
      outDir: '../dist/renderer',
      emptyOutDir: true,
      target: 'chrome120',
      reportCompressedSize: false,
    },
  };
});
