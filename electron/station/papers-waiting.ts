// Papers waiting to go to SHA with a request the station sends later: a preauthorization may be
// given before the patient's consent is in, and is sent when it is, or after a restart. The journal
// and the workflow records never hold a file's bytes (they would bloat every save and every backup
// of the SQLite file), so the bytes wait here, one folder per workflow in the station's data
// folder, each file sealed with the journal key like the workflow records (a medical paper on a
// shared ward computer). The workflow keeps what each paper is and its SHA-256, so a file that is
// gone or altered is found before anything is sent, never sent without it.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sealer } from './sealing';

/** What the workflow keeps of a waiting paper. */
export interface HeldPaper {
  readonly documentType: string;
  readonly title: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
}

export interface Paper extends Omit<HeldPaper, 'size' | 'sha256'> {
  readonly data: Uint8Array<ArrayBuffer>;
}

/** Workflow ids are the station's own (`wf_` and URL-safe characters): anything else never names a folder. */
const OWNER = /^[A-Za-z0-9_-]{1,64}$/;

function folderName(owner: string): string {
  if (!OWNER.test(owner)) throw new Error('not a workflow id');
  return owner;
}

function digest(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export class PapersWaiting {
  constructor(private readonly o: { readonly dir: string; readonly sealer: Sealer }) {}

  /** Keeps the papers of one workflow, replacing those it held before; answers what the workflow keeps. */
  async hold(owner: string, papers: readonly Paper[]): Promise<HeldPaper[]> {
    const folder = path.join(this.o.dir, folderName(owner));
    await rm(folder, { recursive: true, force: true });
    if (papers.length === 0) return [];
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const held: HeldPaper[] = [];
    for (const [n, paper] of papers.entries()) {
      const file = path.join(folder, `${n}.sealed`);
      // Written aside and renamed: a crash leaves the whole file or none.
      await writeFile(`${file}.partial`, this.o.sealer.seal(Buffer.from(paper.data).toString('base64')), { mode: 0o600 });
      await rename(`${file}.partial`, file);
      held.push({ documentType: paper.documentType, title: paper.title, fileName: paper.fileName, contentType: paper.contentType, size: paper.data.length, sha256: digest(paper.data) });
    }
    return held;
  }

  /** The papers as they were held, or null when any is gone, unreadable or not the file it was. */
  async take(owner: string, held: readonly HeldPaper[]): Promise<Paper[] | null> {
    const folder = path.join(this.o.dir, folderName(owner));
    const papers: Paper[] = [];
    for (const [n, meta] of held.entries()) {
      let opened: unknown;
      try {
        opened = this.o.sealer.open(await readFile(path.join(folder, `${n}.sealed`), 'utf8'));
      } catch {
        return null;
      }
      // A paper is sealed as its bytes in base64: anything else is not a paper this station held.
      if (typeof opened !== 'string') return null;
      const data = Buffer.from(opened, 'base64');
      if (data.length !== meta.size || digest(data) !== meta.sha256) return null;
      papers.push({ documentType: meta.documentType, title: meta.title, fileName: meta.fileName, contentType: meta.contentType, data });
    }
    return papers;
  }

  async release(owner: string): Promise<void> {
    await rm(path.join(this.o.dir, folderName(owner)), { recursive: true, force: true });
  }

  /** At start: the folders of workflows that no longer wait to send anything are removed. */
  async keepOnly(owners: ReadonlySet<string>): Promise<void> {
    let entries: string[];
    try {
      entries = await readdir(this.o.dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!owners.has(entry)) await rm(path.join(this.o.dir, entry), { recursive: true, force: true });
    }
  }
}
