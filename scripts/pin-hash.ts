// npm run pin-hash: reads a PIN from standard input (one line) and prints the salted scrypt hash the
// provisioning file's `staff[].pinHash` takes. The PIN never goes on the command line, where the
// process list and the shell's history would show it.
import { hashPin } from '../electron/station/staff';

async function main(): Promise<void> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const pin = text.replace(/\r?\n$/, '');
  if (!/^[A-Za-z0-9]{4,20}$/.test(pin)) {
    process.stderr.write('pin-hash: give the PIN on standard input: 4 to 20 letters or digits (an administrator\'s: 6 or more)\n');
    process.exit(2);
  }
  process.stdout.write(`${await hashPin(pin)}\n`);
}

void main();
