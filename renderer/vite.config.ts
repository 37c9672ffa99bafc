// Builds the renderer into dist/renderer, where the browser host serves it and the Electron shell
// loads it from app://. Relative asset paths (base './') work under both origins.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { featureWords } from '../build/renderer-words';

/**
 * What the look-up screen needs at start: the libraries (but the list windowing, used only once a
 * patient is found) and the renderer's frame, state and look-up. Kept in one chunk so the first
 * screen costs two requests, not one per shared module; every other screen stays a lazy chunk.
 */
const bootModule = (id: string): boolean => {
  const path = id.replaceAll('\\', '/');
  if (path.includes('/node_modules/')) return !path.includes('/@tanstack/');
  // The Kiswahili strings (each folder's sw.json) come in their own chunk on first use, the look-up's
  // included; the date and file fields with the screens that have one.
  if (path.endsWith('/sw.json')) return false;
  return /\/renderer\/(App\.tsx|main\.tsx|bridge\/|state\/|i18n\/(index|format|formatting|catalogue|english)\.ts|i18n\/en\.json|ui\/(?!DateField|FileField)|features\/(lookup|status|lock)\/[^/]+\.tsx?$|features\/work\/(queue|words|AnswerNotice)\.tsx?$|features\/claims\/store\.ts|features\/services\/(store|filter)\.ts|features\/consent\/preference\.ts|features\/emergency\/draft\.ts)/.test(path);
};

/** Each feature's English words go with the first screen that names them (build/renderer-words.ts). */
const words = featureWords(import.meta.dirname, bootModule);

export default defineConfig(({ command }) => {
  // A build is always production React (runtime and JSX transform alike), even when started from a
  // test runner whose NODE_ENV is 'test', so what the tests drive is what ships.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    base: './',
    plugins: [words, react()],
    // The strings ship as JSON.parse('…'), which V8 reads faster than an object literal this size.
    json: { stringify: true },
    build: {
      outDir: '../dist/renderer',
      emptyOutDir: true,
      target: 'chrome120',
      reportCompressedSize: false,
      rolldownOptions: {
        output: { codeSplitting: { groups: [{ name: 'boot', test: (id: string) => bootModule(id) || words.forFirstScreen(id) }] } },
      },
    },
  };
});
