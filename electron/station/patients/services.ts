// A patient's services: their sub-benefits and the interventions of those sub-benefits SHA has been
// asked for. The exchange lists interventions one sub-benefit at a time (`sub_benefit_code` is
// required, 1–4 s each on the live service) and a member can have ~30 sub-benefits and ~850
// interventions, against rate limits nobody has published: so a list is asked for only when
// something needs it — the ward's usual and most-used sub-benefits, the first few of the ward's own
// (`plan`, once the sub-benefits are in), the one the nurse picks, the ones her search points to —
// never every list. Each is asked once (joined by concurrent callers) in the lane its caller needs,
// and kept while this object is (a patient's look-ups within a shift share it: directory.ts).
import type { ExchangeClient, Page, SubBenefit as WireSubBenefit } from '../../payer';
import { toContractIntervention, type ContractIntervention } from './interventions';
import type { Lane, ListQueue, Queued } from './list-queue';

const PAGE = 100;

/** Where a sub-benefit's list stands: arrived, on its way (or waiting its turn), or not asked for. */
export type Listing = 'listed' | 'asking' | 'unasked';

export class PatientServices {
  /** Later look-ups' lists go first (ListQueue); a look-up that takes this object over raises it. */
  generation: number;
  private all: WireSubBenefit[] | null = null;
  private loading: Promise<WireSubBenefit[]> | null = null;
  /** Each sub-benefit's interventions, by its code: loaded, on the way or waiting its turn (a failed load is forgotten). */
  private readonly lists = new Map<string, Queued<ContractIntervention[]>>();
  /** The lists that have arrived. */
  readonly listed = new Map<string, ContractIntervention[]>();

  constructor(
    private readonly o: {
      patientId: string;
      covered: boolean;
      generation: number;
      queue: ListQueue;
      client: () => ExchangeClient;
      /** When the first of these answers was asked for (ms): how long they may be kept is counted from it. */
      since: number;
      /** The lists to ask for once the sub-benefits are in, without anyone asking (directory.ts, ward.ts). */
      plan: (subBenefits: readonly WireSubBenefit[], asked: ReadonlySet<string>) => readonly { code: string; lane: Lane }[];
      /** Every list that arrives, as SHA answered it (the station's catalogue learns from it). */
      onListed: (subBenefitCode: string, items: readonly ContractIntervention[]) => void;
    },
  ) {
    this.generation = o.generation;
  }

  get patientId(): string {
    return this.o.patientId;
  }

  get since(): number {
    return this.o.since;
  }

  /**
   * The patient's sub-benefits, every page, asked once (joined by concurrent callers; asked again
   * after a failure); none when not covered. The planned lists go out the moment they are in.
   */
  async subBenefits(): Promise<WireSubBenefit[]> {
    if (!this.o.covered) return [];
    if (this.all !== null) return this.all;
    this.loading ??= (async () => {
      const client = this.o.client();
      const all = await allPages((page) => client.eligibility.subBenefits({ patient_id: this.o.patientId, page, pageSize: PAGE }));
      this.all = all;
      for (const { code, lane } of this.o.plan(all, new Set(this.lists.keys()))) void this.list(code, lane).catch(() => undefined);
      return all;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** The sub-benefits if they are in, without asking. */
  get known(): readonly WireSubBenefit[] | null {
    return this.all;
  }

  listing(code: string): Listing {
    if (this.listed.has(code)) return 'listed';
    return this.lists.has(code) ? 'asking' : 'unasked';
  }

  /** Whether this sub-benefit's list has been asked for (arrived, on the way or waiting its turn). */
  asked(code: string): boolean {
    return this.lists.has(code);
  }

  /**
   * One sub-benefit's interventions, asked once in its lane (a lane asked for again more urgently
   * moves it up). The first page goes without paging parameters (the exchange serves a
   * sub-benefit's list whole); more only if it says so.
   */
  list(code: string, lane: Lane): Promise<ContractIntervention[]> {
    const known = this.lists.get(code);
    if (known !== undefined) {
      known.raise(lane);
      return known.promise;
    }
    const client = this.o.client();
    const queued = this.o.queue.enqueue(lane, this.generation, async () => {
      const items = await allPages((page) => client.eligibility.interventions({ patient_id: this.o.patientId, sub_benefit_code: code, ...(page === 1 ? {} : { page }) }));
      const mapped = items.map((i) => toContractIntervention(i, code));
      this.listed.set(code, mapped);
      this.o.onListed(code, mapped);
      return mapped;
    });
    this.lists.set(code, queued);
    void queued.promise.catch(() => {
      if (this.lists.get(code) === queued) this.lists.delete(code);
    });
    return queued.promise;
  }

  /** The interventions of these sub-benefits, in their order; an intervention listed under two is shown once, under the first. */
  async interventionsOf(subBenefits: readonly WireSubBenefit[], lane: Lane): Promise<ContractIntervention[]> {
    const lists = await Promise.all(subBenefits.map((s) => this.list(s.code, lane)));
    const byCode = new Map<string, ContractIntervention>();
    for (const i of lists.flat()) if (!byCode.has(i.code)) byCode.set(i.code, i);
    return [...byCode.values()];
  }
}

/** The first page, then the rest together. */
async function allPages<T>(fetchPage: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const first = await fetchPage(1);
  const rest = await Promise.all(Array.from({ length: Math.max(0, Math.min(first.totalPages, 50) - 1) }, (_, i) => fetchPage(i + 2)));
  return [first, ...rest].flatMap((p) => p.items);
}
