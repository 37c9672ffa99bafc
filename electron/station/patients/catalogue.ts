// Where SHA's answers have listed each intervention at this station: its code and name under a
// sub-benefit. The exchange has no search by name (an interventions list is asked by
// `sub_benefit_code`, or one intervention by `code`: docs/exchange-wire.md, `eligibility.interventions`),
// so a nurse's search for a service is turned into the one or two lists it was found in before —
// for any patient, since the catalogue is SHA's, not the patient's. A hint and nothing more: what she
// picks always comes from this patient's own list, asked of SHA; a stale hint costs one list.
import type { Clock } from '../deps';
import type { Db } from '../db';
import type { ContractIntervention } from './interventions';

/** How long a sighting guides a search (ours: no source says how often SHA's catalogue changes). */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

interface Sighting {
  readonly subBenefitCode: string;
  /** Lower-cased "code name", as the screens search it. */
  readonly haystack: string;
}

export class ServiceCatalogue {
  private readonly sightings = new Map<string, Sighting>();
  private readonly upsert;

  constructor(private readonly o: { db: Db; clock: Clock }) {
    this.upsert = o.db.prepare(
      `INSERT INTO service_catalogue (code, sub_benefit_code, name, seen_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (code, sub_benefit_code) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at`,
    );
  }

  /** Forgets sightings older than KEEP_MS and reads the rest. */
  load(): void {
    const cutoff = new Date(this.o.clock.now() - KEEP_MS).toISOString();
    this.o.db.prepare('DELETE FROM service_catalogue WHERE julianday(seen_at) < julianday(?)').run(cutoff);
    const rows = this.o.db.prepare('SELECT code, sub_benefit_code, name FROM service_catalogue').all() as { code: string; sub_benefit_code: string; name: string }[];
    for (const row of rows) this.remember(row.code, row.sub_benefit_code, row.name);
  }

  /** What one sub-benefit's list held, as SHA answered it. */
  learn(subBenefitCode: string, items: readonly ContractIntervention[]): void {
    const seenAt = new Date(this.o.clock.now()).toISOString();
    this.o.db.transaction(() => {
      for (const item of items) this.upsert.run(item.code, subBenefitCode, item.name, seenAt);
    })();
    for (const item of items) this.remember(item.code, subBenefitCode, item.name);
  }

  /** The sub-benefits whose lists held services matching every word, those with the most matches first. */
  subBenefitsFor(words: readonly string[]): string[] {
    const hits = new Map<string, number>();
    for (const s of this.sightings.values()) {
      if (words.every((w) => s.haystack.includes(w))) hits.set(s.subBenefitCode, (hits.get(s.subBenefitCode) ?? 0) + 1);
    }
    return [...hits.entries()].sort(([, a], [, b]) => b - a).map(([code]) => code);
  }

  private remember(code: string, subBenefitCode: string, name: string): void {
    this.sightings.set(`${subBenefitCode}\n${code}`, { subBenefitCode, haystack: `${code} ${name}`.toLowerCase() });
  }
}
