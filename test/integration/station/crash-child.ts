// A station process for the crash-resume test: the core on a SQLite file, its bridge served to the
// parent over IPC, and a journal hook that SIGKILLs the process at one journal point (the first
// time it is reached). The secret store is a JSON file written synchronously, so the journal key
// and the client secret survive the kill as a keystore would.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createExchangeClient } from '../../../electron/payer';
import { createStation, nativeReaders, type SecretStore } from '../../../electron/station';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`crash-child needs ${name}`);
  return value;
};

function fileSecretStore(path: string): SecretStore {
  const read = (): Record<string, string> => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>) : {});
  const write = (values: Record<string, string>) => {
    writeFileSync(`${path}.tmp`, JSON.stringify(values));
    renameSync(`${path}.tmp`, path);
  };
  return {
    get: (key) => read()[key],
    set: (key, value) => write({ ...read(), [key]: value }),
    delete: (key) => {
      const { [key]: _gone, ...rest } = read();
      write(rest);
    },
  };
}

const crashAt = process.env.IDHINI_CRASH_AT; // "operation:phase"
const sandboxUrl = env('IDHINI_SANDBOX_URL');

const station = createStation({
  databasePath: env('IDHINI_DB'),
  secrets: fileSecretStore(env('IDHINI_SECRETS')),
  exchangeClientFactory: createExchangeClient,
  readers: nativeReaders({ localWorkstationId: 'WS-CRASH-TEST' }),
  platform: 'linux',
  log: { destination: { write: () => true } },
  timing: { authorizationPollMs: 50, preauthPollMs: 100, smsResendCooldownMs: 100, reconcileRetryMs: 100 },
  initialSettings: {
    exchangeBaseUrl: sandboxUrl,
    trainingMode: true,
    facilityCode: 'FID-00-000004-0',
    facilityName: 'Idhini Demo Hospital',
    agentNationalId: '22334455',
    allowedLinkOrigins: [sandboxUrl],
  },
  onJournalPoint: (point) => {
    if (crashAt !== undefined && `${point.operation}:${point.phase}` === crashAt) process.kill(process.pid, 'SIGKILL');
  },
});

process.on('message', (message: { id: number; name: string; input: unknown }) => {
  void station.bridge.invoke(message.name as 'station.status', message.input as Record<string, never>).then((outcome) => process.send?.({ id: message.id, outcome }));
});

void station.start().then(
  () => process.send?.({ ready: true }),
  (error: unknown) => {
    process.stderr.write(`crash-child could not start: ${String(error)}\n`);
    process.exit(1);
  },
);
