// The import boundaries as allow-lists, one per folder (a layer), after VS Code's code-layering:
// a file may import its own layer and what its layer's list names, nothing else. A name is another
// layer (`electron/contract`), a package (`zod`, `@fastify/static`) or `node:*` for Node's built-ins.
// Each folder's README says the same in its "May import" row, and test/unit/layers.test.ts holds
// the READMEs and these lists equal, so the rule a reader finds is the rule the lint enforces.
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Each layer: what it may import, and why (said when an import is refused). A file belongs to the
 * deepest layer holding it; folders under no layer (test/, scripts/, bench/, build/) may import
 * anything. A folder may use its own inner layers; from outside a top folder, naming the folder
 * reaches its inner layers (the station names `native-bridge`); inside it, each inner layer names
 * exactly the others it uses.
 */
export const layers = {
  'electron/vocabulary': { may: [], why: "SHA's closed lists are values only: everything may import them, they import nothing." },
  'electron/contract': { may: ['electron/vocabulary', 'zod'], why: 'The contract is what both shells and the renderer share: its schemas and SHA’s closed lists, nothing else.' },
  'electron/payer': { may: ['electron/vocabulary', 'undici', 'zod', 'node:*'], why: 'The exchange client knows the exchange alone.' },
  'electron/sandbox': {
    may: ['electron/vocabulary', 'fastify', '@fastify/formbody', '@fastify/multipart', 'zod', 'node:*'],
    why: 'The sandbox stands in for the exchange with its own schemas, so it and the client prove each other: nothing of the client or the station.',
  },
  'electron/station': {
    may: ['electron/contract', 'electron/payer', 'electron/vocabulary', 'native-bridge', 'better-sqlite3', 'pino', 'pdfkit', 'zod', 'node:*'],
    why: 'The station core is what both shells host: it knows neither shell, the sandbox nor the renderer, and never Electron.',
  },
  'electron/main': {
    may: ['electron', 'electron/station', 'electron/contract', 'electron/payer', 'native-bridge', 'zod', 'node:*'],
    why: 'The Electron shell hosts the station core through the contract; the browser host, the sandbox and the renderer are not its.',
  },
  'electron/preload': { may: ['electron', 'electron/contract'], why: 'The preload exposes the contract and nothing else.' },
  'electron/browser-host': {
    may: ['electron/contract', 'electron/station', 'fastify', '@fastify/static', '@fastify/websocket', 'ws', 'node:*'],
    why: 'The browser host serves the station core over loopback; it knows no Electron shell.',
  },
  renderer: {
    may: ['electron/contract', 'react', 'react-dom', 'zustand', 'i18next', 'react-i18next', '@tanstack/react-virtual', 'zod'],
    why: 'The renderer runs in a sandboxed page and talks only to the station contract: no Node built-ins, no other folder of the station.',
  },
  'native-bridge': {
    may: ['serialport', 'node-hid', 'ws', 'fastify', 'node:*'],
    why: 'The reader layer knows nothing of the station, the exchange or the UI, and never Electron.',
  },
  // The reader layer's own layers: a protocol never sees a transport, a transport never parses a
  // protocol, a driver takes any ByteTransport (never a concrete one), product code never the emulators.
  'native-bridge/protocols': { may: [], why: 'Framing is pure: bytes in, bytes out, nothing outside this folder (not even Node).' },
  'native-bridge/transports': { may: [], why: 'The ByteTransport interface is a type alone.' },
  'native-bridge/transports/serial': { may: ['native-bridge/transports', 'serialport'], why: 'A transport moves bytes over its port and never parses a protocol.' },
  'native-bridge/transports/hid-cp2110': { may: ['native-bridge/transports', 'node-hid'], why: 'A transport moves bytes over its bridge and never parses a protocol.' },
  'native-bridge/drivers': {
    may: ['native-bridge/protocols', 'native-bridge/transports', 'node:*'],
    why: 'A driver joins a protocol to any ByteTransport: never a concrete transport.',
  },
  'native-bridge/manager': {
    may: ['native-bridge/drivers', 'native-bridge/transports', 'native-bridge/transports/serial', 'native-bridge/transports/hid-cp2110', 'native-bridge/agent', 'native-bridge/service', 'native-bridge/cli', 'serialport'],
    why: 'The manager finds readers and opens them on a concrete transport.',
  },
  'native-bridge/agent': { may: ['ws', 'node:*'], why: 'The hardware-service monitor speaks to the exchange’s service alone.' },
  'native-bridge/service': { may: ['native-bridge/drivers', 'native-bridge/agent', 'fastify', 'ws', 'node:*'], why: 'The local device service serves the readers through their interface.' },
  'native-bridge/emulators': { may: ['native-bridge/protocols', 'serialport', 'node:*'], why: 'Emulators are test tools: they speak the protocols over a serial port.' },
  'native-bridge/cli': {
    may: ['native-bridge/drivers', 'native-bridge/protocols', 'native-bridge/transports/serial', 'node:*'],
    why: 'The reader CLI opens a reader on a serial port.',
  },
};

/** Files of a layer that are build tooling, not the layer's code (the renderer's Vite config). */
export const tooling = ['renderer/vite.config.ts'];

const names = Object.keys(layers);

/** The layer holding a path relative to the root (forward slashes), or null. */
export function layerOf(relative) {
  let found = null;
  for (const name of names) if ((relative === name || relative.startsWith(`${name}/`)) && (found === null || name.length > found.length)) found = name;
  return found;
}

/** What an import names, as the allow-lists name it: a layer, a package, `node:*`, or a path outside every layer. */
export function targetOf(fromRelative, specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromRelative), specifier));
    return layerOf(resolved) ?? resolved.split('/')[0];
  }
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return 'node:*';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const within = (inner, outer) => inner.startsWith(`${outer}/`);
/** The layers inside no other: the folders of the root README's table. */
export const topLayers = names.filter((name) => !names.some((outer) => within(name, outer)));
const topOf = (name) => topLayers.find((top) => name === top || within(name, top)) ?? name;

/** Whether a file of `layer` (allowed `may`) may import what `target` names. */
export function allowed(layer, may, target) {
  if (target === layer || within(target, layer) || may.includes(target)) return true;
  return topOf(target) !== topOf(layer) && may.some((name) => within(target, name));
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Each folder imports only what its allow-list (and its README's May import row) names." },
    schema: [],
    messages: { outside: '{{layer}} may not import {{target}} ({{specifier}}): it may import {{allowed}}. {{why}}' },
  },
  create(context) {
    const relative = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const layer = layerOf(relative);
    if (layer === null || tooling.includes(relative)) return {};
    const { may, why } = layers[layer];
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = targetOf(relative, source.value);
      if (allowed(layer, may, target)) return;
      context.report({ node: source, messageId: 'outside', data: { layer, target, specifier: source.value, allowed: may.length === 0 ? 'nothing' : may.join(', '), why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
      },
    };
  },
};

export const layersPlugin = { rules: { 'allowed-imports': rule } };
