// The station's one SQLite file: settings, patients looked up this shift and their lasting refs,
// workflows, the journal of exchange calls, the audit log and the records set aside. Its plain
// rows are upgraded here, by SQL, one schema version at a time; sealed records cannot be, so each
// carries its own version (versioned.ts). WAL with synchronous FULL: a row
// that a call returned from is on disk, so a crash after it (even of the machine) cannot lose a
// consent the exchange has.
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { OWNER_ONLY_FILE_MODE } from './owner-only';

export type Db = Database.Database;

const schema = [
  // version 1
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE patients (
    ref TEXT PRIMARY KEY,
    looked_up_at TEXT NOT NULL,
    id_type TEXT NOT NULL,
    masked_name TEXT NOT NULL,
    masked_id_number TEXT NOT NULL,
    covered INTEGER NOT NULL,
    sealed TEXT NOT NULL
  );
  CREATE TABLE workflows (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    patient_ref TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0,
    sealed TEXT NOT NULL
  );
  CREATE INDEX workflows_open ON workflows (ended, updated_at);
  CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    workflow_id TEXT NOT NULL REFERENCES workflows (id),
    operation TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('started', 'succeeded', 'failed', 'unknown', 'reconciled')),
    started_at TEXT NOT NULL,
    finished_at TEXT,
    error_code TEXT,
    sealed TEXT NOT NULL
  );
  CREATE INDEX calls_open ON calls (status, workflow_id);
  CREATE TABLE audit (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    workflow_id TEXT,
    workflow_kind TEXT,
    outcome TEXT NOT NULL,
    error_code TEXT,
    summary TEXT NOT NULL,
    previous_hash TEXT,
    hash TEXT NOT NULL
  );
  -- The newest record's seq and hash, written with it: removing the last records shows as a mismatch.
  CREATE TABLE audit_head (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL);
  -- Append-only: the station never edits or removes a record; only someone with the file in hand can.
  CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  `,
  // version 2: one opaque ref per patient (identification and facility), kept as long as the
  // station's data, so that a look-up on a later day finds the patient's unfinished workflows.
  // The key is a keyed hash of the identification (Sealer.keyedHash), never the ID number itself.
  `
  CREATE TABLE patient_refs (key TEXT PRIMARY KEY, ref TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
  `,
  // version 3: who works at the station. Staff with their PINs' salted scrypt hashes; the count of
  // wrong PINs (it survives a restart); the staff member signed in when each audit record was written.
  `
  CREATE TABLE staff (
    ref TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('nurse', 'administrator')),
    national_id TEXT,
    pin_hash TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('station', 'provisioned', 'training')),
    created_at TEXT NOT NULL
  );
  CREATE TABLE pin_guard (id INTEGER PRIMARY KEY CHECK (id = 1), failures INTEGER NOT NULL, locked_until INTEGER NOT NULL);
  ALTER TABLE audit ADD COLUMN actor TEXT;
  `,
  // version 4: records the station could not read back, set aside (quarantine.ts). The records
  // themselves stay where they are; this says which, why, and since when.
  `
  CREATE TABLE quarantine (
    source TEXT NOT NULL CHECK (source IN ('workflow', 'patient', 'setting', 'memo')),
    key TEXT NOT NULL,
    kind TEXT,
    reason TEXT NOT NULL CHECK (reason IN ('unreadable', 'newer', 'invalid')),
    detail TEXT NOT NULL,
    found_at TEXT NOT NULL,
    PRIMARY KEY (source, key)
  );
  `,
  // version 5: whether a staff member's PIN is shorter than new PINs may be (null: not seen since the
  // rule came; learnt at her next sign-in). PIN hashes are keyed with the secret store's pepper from
  // this version on (staff.ts), which needs no column.
  `
  ALTER TABLE staff ADD COLUMN pin_short INTEGER CHECK (pin_short IN (0, 1));
  `,
  // version 6: where SHA's answers have listed each intervention (its code and name under a
  // sub-benefit), so a nurse's search asks SHA for the list it is in rather than for every list.
  // A hint only, kept 30 days (patients/catalogue.ts); no patient in it.
  `
  CREATE TABLE service_catalogue (
    code TEXT NOT NULL,
    sub_benefit_code TEXT NOT NULL,
    name TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    PRIMARY KEY (code, sub_benefit_code)
  );
  `,
];

/**
 * The file made for its user alone before SQLite opens it (SQLite gives its -wal and -shm files the
 * database file's mode), and an older one found open to others tightened. POSIX only: on Windows the
 * mode bits mean nothing, and the data folder's ACL (owner-only.ts) covers the files in it.
 */
function keepFileToOwner(path: string): void {
  if (path === ':memory:') return;
  closeSync(openSync(path, 'a', OWNER_ONLY_FILE_MODE));
  if (process.platform === 'win32') return;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, OWNER_ONLY_FILE_MODE);
  }
}

export function openDatabase(path: string): Db {
  keepFileToOwner(path);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > schema.length) {
    db.close();
    throw new Error(`The station database ${path} was written by a newer Idhini (schema ${version}); this one knows ${schema.length}.`);
  }
  db.transaction(() => {
    for (let v = version; v < schema.length; v += 1) db.exec(schema[v]!);
    db.pragma(`user_version = ${schema.length}`);
  })();
  return db;
}
