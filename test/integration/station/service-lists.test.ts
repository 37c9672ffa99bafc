// What one look-up costs SHA in service lists (GET /patients/benefits/interventions, one
// sub-benefit each), against the sandbox's 30 sub-benefits, counted by the sandbox: the ward's few
// lists without the nurse asking, then only what she picks or searches for, and nothing again for
// a patient looked up earlier in the shift. Issue 24: today's main asked for every list.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandOutput } from '../../../electron/contract';
import { eventually, startWorld, type StationHandle, type World } from './harness';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});
// The sandbox's record of the calls it answered starts empty for each test.
beforeEach(async () => {
  await world.control.post('/reset');
});

const LISTS = '/api/v1/patients/benefits/interventions';

/** The service lists SHA was asked for since the last reset. */
async function listsAsked(): Promise<number> {
  const { recent } = await world.control.get<{ recent: { method: string; path: string }[] }>('/faults');
  return recent.filter((r) => r.method === 'GET' && r.path === LISTS).length;
}

type SubBenefits = CommandOutput<'benefits.subBenefits'>['items'];

/** The lists asked for once SHA has been asked for no new one for half a second. */
async function quietLists(): Promise<number> {
  let last = await listsAsked();
  for (let quietFor = 0; quietFor < 500; ) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await listsAsked();
    quietFor = now === last ? quietFor + 100 : 0;
    last = now;
  }
  return last;
}

/** As the patient screen does: eligibility at once, then the details and the sub-benefits; answers once the station asks for nothing more. */
async function lookUp(s: StationHandle, idNumber: string): Promise<{ patientRef: string; subBenefits: SubBenefits; lists: number }> {
  const found = await s.ok('patient.lookUp', { idType: 'National ID', idNumber, answerAt: 'eligibility' });
  const details = await s.ok('patient.details', { patientRef: found.patientRef });
  expect(details.detailsLoading).toBe(false);
  await s.ok('benefits.subBenefits', { patientRef: found.patientRef, pageSize: 100 });
  const lists = await quietLists();
  return { patientRef: found.patientRef, subBenefits: await settled(s, found.patientRef), lists };
}

/** The sub-benefits once no list the station asked for is still on its way. */
async function settled(s: StationHandle, patientRef: string): Promise<SubBenefits> {
  const page = await eventually(
    () => s.ok('benefits.subBenefits', { patientRef, pageSize: 100 }),
    (p) => p.items.every((i) => i.listing !== 'asking'),
    'the lists the station asked for',
  );
  return page.items;
}

const listed = (items: SubBenefits) => items.filter((i) => i.listing === 'listed').map((i) => i.code);

describe('service lists per look-up', () => {
  it('a fresh station asks for the ward’s own few lists, not one per sub-benefit, and still suggests the ward’s service', async () => {
    const s = await world.station();
    const { patientRef, subBenefits, lists } = await lookUp(s, '30000001');
    expect(subBenefits).toHaveLength(30);
    expect(lists).toBeLessThanOrEqual(6);
    const asked = listed(subBenefits);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).toHaveLength(lists);
    // The outpatient ward's own: not inpatient-only, not the emergency package (SB-01-…, parent SHA-01).
    for (const code of asked) {
      expect(subBenefits.find((i) => i.code === code)!.careSetting).not.toBe('inpatient');
      expect(code.startsWith('SB-01-')).toBe(false);
    }
    expect(subBenefits.filter((i) => i.listing === 'unasked')).toHaveLength(30 - asked.length);
    const summary = await s.ok('patient.details', { patientRef });
    expect(summary.suggestedIntervention).toMatchObject({ scenario: 'capitation' });
    // Nothing more goes out behind the nurse's back.
    await new Promise((r) => setTimeout(r, 300));
    expect(await listsAsked()).toBe(asked.length);
  });

  it('asks for the one sub-benefit the nurse picks, and for what her search points to: two lists at most a search', async () => {
    const s = await world.station();
    const { patientRef, subBenefits } = await lookUp(s, '30000001');
    const before = await listsAsked();
    const inpatient = subBenefits.find((i) => i.listing === 'unasked' && i.name === 'General inpatient care')!;
    const picked = await s.ok('benefits.interventions', { patientRef, subBenefitCode: inpatient.code, pageSize: 1000 });
    expect(picked.items.length).toBeGreaterThan(0);
    expect(await listsAsked()).toBe(before + 1);

    // A sub-benefit's name: "dialysis" is in "Haemodialysis".
    const dialysis = await s.ok('benefits.lookFor', { patientRef, search: 'dialysis' });
    const haemodialysis = subBenefits.find((i) => i.name === 'Haemodialysis')!;
    expect(dialysis.subBenefitCodes).toEqual([haemodialysis.code]);
    await settled(s, patientRef);
    expect(await listsAsked()).toBe(before + 2);
    const found = await s.ok('benefits.interventions', { patientRef, subBenefitCode: haemodialysis.code, search: 'haemodialysis session' });
    expect(found.total).toBeGreaterThan(0);
    expect(await listsAsked()).toBe(before + 2);

    // "care" is in many names: only two lists are asked for it, the rest stay the nurse's to ask.
    const care = await s.ok('benefits.lookFor', { patientRef, search: 'care' });
    expect(care.subBenefitCodes.length).toBeGreaterThanOrEqual(2);
    await settled(s, patientRef);
    expect(await listsAsked()).toBe(before + 4);
  });

  it('keeps a patient’s lists for their next look-up, and sends the next patient’s search to the list SHA listed the service in', async () => {
    const s = await world.station();
    const first = await lookUp(s, '30000001');
    const delivery = first.subBenefits.find((i) => i.name === 'Normal delivery')!;
    expect(delivery.listing).toBe('unasked');
    await s.ok('benefits.interventions', { patientRef: first.patientRef, subBenefitCode: delivery.code, pageSize: 1000 });
    const afterFirst = await listsAsked();

    // The same patient again, within the shift: no list asked again.
    const again = await lookUp(s, '30000001');
    expect(again.patientRef).toBe(first.patientRef);
    expect(listed(again.subBenefits)).toEqual(expect.arrayContaining([delivery.code]));
    expect(await listsAsked()).toBe(afterFirst);

    // Another patient: the ward's lists, then a search by a service's name (no sub-benefit is
    // named so) goes straight to the list it was in for the first patient.
    const second = await lookUp(s, '30000002');
    const afterSecond = await listsAsked();
    expect(afterSecond - afterFirst).toBe(listed(second.subBenefits).length);
    const search = await s.ok('benefits.lookFor', { patientRef: second.patientRef, search: 'spontaneous vaginal' });
    expect(search.subBenefitCodes).toEqual([delivery.code]);
    await settled(s, second.patientRef);
    expect(await listsAsked()).toBe(afterSecond + 1);
    const page = await s.ok('benefits.interventions', { patientRef: second.patientRef, subBenefitCode: delivery.code, search: 'spontaneous vaginal' });
    expect(page.items[0]?.name).toMatch(/^Spontaneous vaginal delivery/);
  });
});
