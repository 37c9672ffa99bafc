// npm run pin-hash: reads a PIN from standard input (one line) and prints the salted scrypt hash the
// provisioning file's `staff[].pinHash` takes. The PIN never goes on the command line, where the
// process list and the shell's history would show it. The hash is plain scrypt, since it is made
// here and not at a station: each station keys it with its own PIN pepper as it reads the file.
import { NEW_PIN_MIN_LENGTH } from '../electron/contract';
import { hashPin } from '../electron/station/staff';

async function main(): Promise<void> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const pin = text.replace(/\r?\n$/, '');
  if (!new RegExp(`^[A-Za-z0-9]{${NEW_PIN_MIN_LENGTH},20}$`).test(pin)) {
    process.stderr.write(`pin-hash: give the PIN on standard input: ${NEW_PIN_MIN_LENGTH} to 20 letters or digits\n`);
    process.exit(2);
  }
  process.stdout.write(`${await hashPin(pin)}\n`);
}

void main();
