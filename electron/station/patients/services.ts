// One look-up's services: the patient's sub-benefits and each one's interventions, asked of the
// exchange once per look-up (joined by concurrent callers) in the lane the caller needs them in.
// The exchange lists interventions one sub-benefit at a time (`sub_benefit_code` is required, 1–4 s
// each on the live service) and a member can have ~30 sub-benefits and ~850 interventions.
import type { ExchangeClient, Page, SubBenefit as WireSubBenefit } from '../../payer';
import { toContractIntervention, type ContractIntervention } from './interventions';
import type { Lane, ListQueue, Queued } from './list-queue';

const PAGE = 100;

export class PatientServices {
  private all: WireSubBenefit[] | null = null;
  private loading: Promise<void> | null = null;
  /** Each sub-benefit's interventions, by its code: loaded, on the way or waiting its turn (a failed load is forgotten). */
  private readonly lists = new Map<string, Queued<ContractIntervention[]>>();
  /** The lists that have arrived. */
  readonly listed = new Map<string, ContractIntervention[]>();

  constructor(
    private readonly o: {
      patientId: string;
      covered: boolean;
      /** Later look-ups' lists go first. */
      generation: number;
      queue: ListQueue;
      client: () => ExchangeClient;
    },
  ) {}

  /** The patient's sub-benefits, every page, once per look-up (joined by concurrent callers); none when not covered. */
  async subBenefits(): Promise<WireSubBenefit[]> {
    if (!this.o.covered) return [];
    if (this.all !== null) return this.all;
    this.loading ??= (async () => {
      const client = this.o.client();
      this.all = await allPages((page) => client.eligibility.subBenefits({ patient_id: this.o.patientId, page, pageSize: PAGE }));
    })().finally(() => {
      this.loading = null;
    });
    await this.loading;
    return this.all ?? [];
  }

  /** Whether this sub-benefit's list has been asked for (arrived, on the way or waiting its turn). */
  asked(code: string): boolean {
    return this.lists.has(code);
  }

  /**
   * One sub-benefit's interventions, fetched once per look-up in its lane (a lane asked for again
   * more urgently moves it up). The first page goes without paging parameters (the exchange serves
   * a sub-benefit's list whole); more only if it says so.
   */
  list(code: string, lane: Lane): Promise<ContractIntervention[]> {
    const known = this.lists.get(code);
    if (known !== undefined) {
      known.raise(lane);
      return known.promise;
    }
    const client = this.o.client();
    const queued = this.o.queue.enqueue(lane, this.o.generation, async () => {
      const items = await allPages((page) => client.eligibility.interventions({ patient_id: this.o.patientId, sub_benefit_code: code, ...(page === 1 ? {} : { page }) }));
      const mapped = items.map((i) => toContractIntervention(i, code));
      this.listed.set(code, mapped);
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
