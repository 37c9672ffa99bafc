// A station process for the crash-resume test: the core on a SQLite file, its bridge served to the
// parent over IPC, and a journal hook that SIGKILLs the process at one journal point (the first
// time it is reached). The key store survives the kill as the product's do: browser mode's file
// (IDHINI_KEYSTORE=browser), or the Electron shell's safeStorage store over a fake safeStorage
// (IDHINI_KEYSTORE=electron).
import { SafeStorageSecretStore } from '../../../electron/main/secret-store';
import { createExchangeClient } from '../../../electron/payer';
import { createStation, FileSecretStore, nativeReaders, type SecretStore } from '../../../electron/station';
import { FakeSafeStorage } from '../../unit/shell/fake-electron';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`crash-child needs ${name}`);
  return value;
};

function keyStore(): SecretStore {
  const file = env('IDHINI_SECRETS');
  if (process.env.IDHINI_KEYSTORE === 'electron') return new SafeStorageSecretStore({ safeStorage: new FakeSafeStorage(), platform: process.platform, file });
  return new FileSecretStore(file, { platform: process.platform });
}

const crashAt = process.env.IDHINI_CRASH_AT; // "operation:phase"
const sandboxUrl = env('IDHINI_SANDBOX_URL');

const station = createStation({
  databasePath: env('IDHINI_DB'),
  secrets: keyStore(),
  exchangeClientFactory: createExchangeClient,
  readers: nativeReaders({ localWorkstationId: 'WS-CRASH-TEST' }),
  platform: 'linux',
  log: { destination: { write: () => true } },
  timing: { authorizationPollMs: 50, preauthPollMs: 100, smsResendCooldownMs: 100, reconcileRetryMs: 100, exchangeTimeoutMs: 2000 },
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
