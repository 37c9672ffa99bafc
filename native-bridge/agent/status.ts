// The exchange's hardware service answers GET /status with
//   {workstationID, devices: [{deviceId, status, type}], card_readers, isAuthed, version}
// (field notes, "The local hardware service at the workstation"). Public clients disagree on
// details, so the reading is lenient: ids may be numbers, isAuthed may be a string, lists may be
// missing. Four states come out of it, in this order of precedence (the first that applies wins,
// because each one hides the next from the nurse): not running, no scanner, agent not signed in,
// ready.

export type HardwareServiceStateKind = 'not-running' | 'no-scanner' | 'agent-signed-out' | 'ready';

export interface HardwareServiceDevice {
  readonly deviceId: string;
  readonly status: string;
  readonly type: string;
}

export interface HardwareServiceStatus {
  readonly workstationID?: string;
  readonly devices: readonly HardwareServiceDevice[];
  readonly cardReaders: readonly HardwareServiceDevice[];
  readonly isAuthed: boolean;
  readonly version?: string;
  /** Set by services that name themselves: 'idhini-station' is the station's own local device service. */
  readonly provider?: string;
}

/** The `provider` the station's own local device service puts in its /status. */
export const STATION_SERVICE_PROVIDER = 'idhini-station';

export type HardwareServiceState =
  | { readonly kind: 'not-running'; readonly reason: string; readonly checkedAt: string }
  | {
      readonly kind: Exclude<HardwareServiceStateKind, 'not-running'>;
      /** The base URL that answered (http or https). */
      readonly baseUrl: string;
      readonly status: HardwareServiceStatus;
      readonly checkedAt: string;
    };

export class HardwareServiceStatusError extends Error {
  override readonly name = 'HardwareServiceStatusError';
}

/** Reads a /status body; throws HardwareServiceStatusError when it is not a status at all. */
export function parseStatus(body: unknown): HardwareServiceStatus {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HardwareServiceStatusError('GET /status did not answer with a JSON object.');
  }
  const record = body as Record<string, unknown>;
  const workstationID = text(record.workstationID ?? record.workstationId ?? record.workStationId);
  const version = text(record.version);
  const provider = text(record.provider);
  return {
    ...(workstationID ? { workstationID } : {}),
    devices: deviceList(record.devices),
    cardReaders: deviceList(record.card_readers ?? record.cardReaders),
    isAuthed: record.isAuthed === true || record.isAuthed === 'true' || record.isAuthed === 1,
    ...(version ? { version } : {}),
    ...(provider ? { provider } : {}),
  };
}

const ABSENT_STATUS = /disconnect|unplug|remov|absent|not[ _-]?(connected|found|present|available)|offline|unavailable/i;
const CARD_READER_TYPE = /card|nfc|smart|acr\d|rfid/i;

/** A fingerprint scanner that the service says is there: card readers and unplugged devices are not. */
export function isConnectedScanner(device: HardwareServiceDevice): boolean {
  return !CARD_READER_TYPE.test(device.type) && !ABSENT_STATUS.test(device.status);
}

export function stateKind(status: HardwareServiceStatus): Exclude<HardwareServiceStateKind, 'not-running'> {
  if (!status.devices.some(isConnectedScanner)) return 'no-scanner';
  if (!status.isAuthed) return 'agent-signed-out';
  return 'ready';
}

function deviceList(value: unknown): HardwareServiceDevice[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry, index): HardwareServiceDevice[] => {
    if (typeof entry === 'string') return [{ deviceId: entry, status: '', type: '' }];
    if (typeof entry !== 'object' || entry === null) return [];
    const device = entry as Record<string, unknown>;
    return [
      {
        deviceId: text(device.deviceId ?? device.id ?? device.serial ?? device.name) ?? `device-${index + 1}`,
        status: text(device.status ?? device.state) ?? '',
        type: text(device.type ?? device.deviceType ?? device.model) ?? '',
      },
    ];
  });
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
