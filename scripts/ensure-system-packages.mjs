// pretest: the suite drives real Chromium, real serial PTYs (socat), a mocked USB stack
// (umockdev + libusb + udev) and a virtual display. On a fresh Debian machine run as root this
// installs whatever is missing; anywhere else it names the packages and stops, rather than letting
// tests fail later with a less helpful message.
import { spawnSync } from 'node:child_process';

/** Debian package → how we tell it is present without relying on dpkg (works in containers too). */
const required = [
  { pkg: 'chromium', present: () => hasCommand('chromium') },
  { pkg: 'xvfb', present: () => hasCommand('xvfb-run') && hasCommand('Xvfb') },
  { pkg: 'socat', present: () => hasCommand('socat') },
  { pkg: 'umockdev', present: () => hasCommand('umockdev-run') },
  { pkg: 'libusb-1.0-0', present: () => hasSharedLibrary('libusb-1.0.so.0') },
  { pkg: 'udev', present: () => hasCommand('udevadm') },
];

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function hasSharedLibrary(soname) {
  const ldconfig = spawnSync('sh', ['-c', `ldconfig -p 2>/dev/null || /sbin/ldconfig -p`], { encoding: 'utf8' });
  return ldconfig.status === 0 && ldconfig.stdout.includes(soname);
}

const missing = required.filter((r) => !r.present()).map((r) => r.pkg);
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (process.platform !== 'linux' || !isRoot || !hasCommand('apt-get')) {
  console.error(
    `npm test needs these system packages: ${missing.join(', ')}.\n` +
      `Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}) and run npm test again.`,
  );
  process.exit(1);
}

console.log(`Installing missing system packages: ${missing.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...missing]]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`apt-get ${args[0]} failed; install ${missing.join(' ')} by hand and run npm test again.`);
    process.exit(1);
  }
}
const stillMissing = required.filter((r) => !r.present()).map((r) => r.pkg);
if (stillMissing.length > 0) {
  console.error(`Still missing after apt-get: ${stillMissing.join(', ')}`);
  process.exit(1);
}
