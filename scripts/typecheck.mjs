// Type-checks every tsconfig of the project, so `npm run typecheck` covers the renderer (DOM)
// and the node side (Electron shell against electron.d.ts, station, payer, sandbox, native-bridge).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = ['tsconfig.json', 'renderer/tsconfig.json'].filter((p) => existsSync(p));
let failed = false;
for (const project of projects) {
  process.stdout.write(`tsc -p ${project}\n`);
  const result = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
