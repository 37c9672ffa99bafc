// prescription.*: prescriptions written on an open visit (its consent token and intervention),
// read back from SHA, and dispensed against at the pharmacy window. Each is kept on its visit,
// sealed with it, so a write and the answer it gets are journaled together. A lost answer is never
// re-sent: the record stays, marked unconfirmed, until SHA's read-back proves it is there
// (workflows/prescriptions.ts says what the read-back can prove); no operation finds a dispense.
// pharmacy.*: the pharmacy window's way to a visit opened at another station (its open visits at
// SHA, SHA's prescription for one reached by the patient's consent at the window, and dispenses
// under it, the same send).
import { randomBytes } from 'node:crypto';
import type { PrescriptionItemInput, PrescriptionView, ValidInput } from '../../contract';
import { isExchangeError } from '../../payer';
import { fail } from '../errors';
import type { Ctx } from '../workflows/context';
import { journal } from '../workflows/journal';
import { requireOwnVisit } from '../workflows/visit';
import { openVisitsAtExchange } from '../workflows/open-visits';
import { listedDoctor } from '../workflows/practitioner';
import { applyAnswer, cut, prescriptionsOf, readBackPrescriptions } from '../workflows/prescriptions';
import type { PrescriptionRecord, VisitWorkflow } from '../workflows/types';
import { defineCommands, type StationServices } from './services';

const newRef = (prefix: 'rx' | 'dx') => `${prefix}_${randomBytes(12).toString('base64url')}`;

/** The station's calendar day (local time): the first day of the treatment. */
function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** An item on the wire (docs/exchange-wire.md, prescriptions.create): frequency an integer per period_unit. */
function wireItem(item: PrescriptionItemInput, startDate: string) {
  return {
    generic_concept_code: item.conceptCode,
    dose_quantity: item.doseQuantity,
    dose_unit: item.doseUnit,
    frequency: item.timesPerPeriod,
    period_unit: item.period,
    duration: item.duration,
    duration_unit: item.durationUnit,
    start_date: startDate,
    needs_refill: item.refills > 0,
    refill_count: item.refills,
    ...(item.patientInstruction === undefined ? {} : { patient_instruction: item.patientInstruction }),
    ...(item.additionalInstruction === undefined ? {} : { additional_instruction: item.additionalInstruction }),
  };
}

export function prescriptionView(visit: VisitWorkflow, rx: PrescriptionRecord): PrescriptionView {
  const fillsAllowed = 1 + Math.max(0, ...rx.items.map((item) => item.refills));
  const done = rx.dispenses.filter((d) => d.state === 'dispensed');
  const fillsCompleted = done.filter((d) => d.completesFill).length;
  const lastCompleting = rx.dispenses.findLastIndex((d) => d.completesFill);
  const fillInProgress = rx.dispenses.slice(lastCompleting + 1).some((d) => !d.completesFill);
  return {
    prescriptionRef: rx.ref,
    workflowId: visit.id,
    patientRef: visit.data.patient.ref,
    maskedName: visit.data.patient.maskedName,
    interventionCode: visit.data.intervention.code,
    writtenAt: rx.writtenAt,
    prescriber: rx.prescriber,
    items: rx.items,
    state: rx.state === 'written' ? 'written' : 'unconfirmed',
    exchangeCode: rx.exchangeCode,
    status: rx.status,
    reviewStatus: rx.reviewStatus,
    statusAt: rx.statusAt ?? null,
    fillsAllowed,
    fillsCompleted,
    fillInProgress,
    dispenses: rx.dispenses.map(dispenseView),
    dispensable: rx.state === 'written' && fillsCompleted < fillsAllowed && visit.data.consentToken !== null,
  };
}

const newestFirst = (a: PrescriptionView, b: PrescriptionView) => b.writtenAt.localeCompare(a.writtenAt);

async function write(c: Ctx, visit: VisitWorkflow, input: ValidInput<'prescription.write'>): Promise<PrescriptionRecord> {
  const consentToken = visit.data.consentToken;
  if (visit.state !== 'open' || consentToken === null) fail('WRONG_STATE', 'A prescription is written on an open visit.', { state: visit.state });
  requireOwnVisit(visit);
  const doctor = listedDoctor(input.prescriber);
  const startDate = localDay(c.clock.now());
  const request = {
    consent_token: consentToken,
    intervention_code: visit.data.intervention.code,
    items: input.items.map((item) => wireItem(item, startDate)),
    identification_number: doctor.identification_number,
    identification_type: doctor.identification_type,
    regulation_body: doctor.regulation_body,
  };
  const record: PrescriptionRecord = {
    ref: newRef('rx'),
    writtenAt: c.nowIso(),
    prescriber: input.prescriber,
    items: input.items.map((item) => ({ ...item, conceptName: item.conceptName ?? null, patientInstruction: item.patientInstruction ?? null, additionalInstruction: item.additionalInstruction ?? null })),
    state: 'sending',
    exchangeCode: null,
    status: null,
    reviewStatus: null,
    statusAt: null,
    dispenses: [],
  };
  // SHA's read-back answers one prescription per consent token: only the visit's first can be settled by it.
  const entry = prescriptionsOf(visit).length === 0 ? journal.createPrescription : journal.createFurtherPrescription;
  // Kept before it is sent: a lost answer leaves it on the visit, unconfirmed, never silently gone.
  c.engine.commit(() => {
    visit.data.prescriptions = [...prescriptionsOf(visit), record];
    c.engine.save(visit);
  });
  await c.engine.send(visit, {
    operation: entry,
    request,
    send: () => c.session.client().prescriptions.create(request),
    settle: (answer) => {
      applyAnswer(record, answer, c.nowIso());
      c.engine.save(visit);
    },
    refused: () => {
      visit.data.prescriptions = prescriptionsOf(visit).filter((rx) => rx !== record);
      c.engine.save(visit);
    },
  });
  return record;
}

type DispenseInput = Pick<ValidInput<'prescription.dispense'>, 'dispenser' | 'products' | 'completesFill'>;
type DispenseEntry = PrescriptionRecord['dispenses'][number];

/**
 * Sends a dispense under the visit's consent: kept (by `keep`) before it is sent, so a lost answer
 * leaves it unconfirmed, never silently gone; dropped when SHA refuses it.
 */
async function sendDispense(c: Ctx, visit: VisitWorkflow, input: DispenseInput, keep: { add(entry: DispenseEntry): void; drop(entry: DispenseEntry): void }): Promise<void> {
  if (visit.data.consentToken === null) fail('WRONG_STATE', 'The visit of this prescription has no claim at SHA.', { state: visit.state });
  const request = {
    actual_products: input.products.map((p) => ({ actual_product_code: p.productCode, medication_price: p.priceKes, total_quantity: p.quantity })),
    consent_token: visit.data.consentToken,
    doctors: [{ identification_number: input.dispenser.identificationNumber, identification_type: input.dispenser.identificationType }],
    intervention_code: visit.data.intervention.code,
  };
  const entry: DispenseEntry = { ref: newRef('dx'), at: c.nowIso(), products: input.products, completesFill: input.completesFill, state: 'sending', status: null };
  c.engine.commit(() => {
    keep.add(entry);
    c.engine.save(visit);
  });
  await c.engine.send(visit, {
    operation: journal.dispense,
    request,
    send: () => c.session.client().prescriptions.dispense(request),
    settle: (answer) => {
      entry.state = 'dispensed';
      entry.status = cut(answer.at(0)?.status);
      c.engine.save(visit);
    },
    refused: () => {
      keep.drop(entry);
      c.engine.save(visit);
    },
  });
}

async function dispense(c: Ctx, visit: VisitWorkflow, rx: PrescriptionRecord, input: DispenseInput): Promise<void> {
  const view = prescriptionView(visit, rx);
  if (view.state !== 'written') fail('WRONG_STATE', 'SHA has not confirmed this prescription: check with SHA before dispensing.', { state: view.state });
  if (visit.data.consentToken !== null && !view.dispensable) fail('WRONG_STATE', 'Every fill of this prescription, refills included, has been dispensed.', { state: 'dispensed' });
  await sendDispense(c, visit, input, {
    add: (entry) => rx.dispenses.push(entry),
    drop: (entry) => {
      rx.dispenses = rx.dispenses.filter((d) => d !== entry);
    },
  });
}

const dispenseView = (d: DispenseEntry) => ({ dispenseRef: d.ref, at: d.at, products: d.products, completesFill: d.completesFill, state: d.state === 'dispensed' ? ('dispensed' as const) : ('unconfirmed' as const), status: d.status });

/** Under a visit reached at the pharmacy window: no prescription of this station, SHA's answer the only limit. */
async function dispenseAtWindow(c: Ctx, visit: VisitWorkflow, input: DispenseInput): Promise<void> {
  if (visit.data.forDispensing !== true) fail('WRONG_STATE', 'This visit was not reached by a consent at the pharmacy window: dispense against its prescriptions.', { state: visit.state });
  if (visit.state !== 'open') fail('WRONG_STATE', 'The visit is no longer open.', { state: visit.state });
  await sendDispense(c, visit, input, {
    add: (entry) => {
      visit.data.windowDispenses = [...(visit.data.windowDispenses ?? []), entry];
    },
    drop: (entry) => {
      visit.data.windowDispenses = (visit.data.windowDispenses ?? []).filter((d) => d !== entry);
    },
  });
}

/** SHA's prescription for a visit held here (the portal's preview by consent token); null when it answers none. */
async function prescriptionAtExchange(c: Ctx, visit: VisitWorkflow) {
  if (visit.data.consentToken === null) return null;
  try {
    const found = await c.session.client().prescriptions.preview({ consent_token: visit.data.consentToken });
    return { exchangeCode: cut(found.code), status: cut(found.status), reviewStatus: cut(found.doctorReviewStatus), medicines: found.medicationIdentifiers.slice(0, 50).map((m) => m.slice(0, 200)) };
  } catch (error) {
    // The portal documents no answer for a token without a prescription; the sandbox's is a 404.
    if (isExchangeError(error) && error.status === 404) return null;
    throw error;
  }
}

/** The visit holding a prescription, or NOT_FOUND. */
function visitOf(c: Ctx, ref: string): { visit: VisitWorkflow; rx: PrescriptionRecord } {
  for (const wf of c.engine.all()) {
    if (wf.kind !== 'visit') continue;
    const rx = prescriptionsOf(wf).find((p) => p.ref === ref);
    if (rx !== undefined) return { visit: wf, rx };
  }
  fail('NOT_FOUND', 'No such prescription at this station.', { field: 'prescriptionRef' });
}

/** The intervention's name among the patient's benefits, or null when it is not listed there. */
async function interventionName(c: Ctx, patientRef: string, code: string): Promise<string | null> {
  try {
    return (await c.patients.intervention(patientRef, code)).name;
  } catch {
    return null;
  }
}

/** A command answered after settling an earlier request instead of running: the nurse looks again. */
function settledFirst(): never {
  fail('WRONG_STATE', 'The station has just settled an earlier request on this visit: look at its prescriptions, then try again.');
}

export const prescriptionCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  const dispenseOnVisit = command(
    ['visit'],
    async (visit, c, input: ValidInput<'prescription.dispense'> & { workflowId: string }) => {
      const rx = prescriptionsOf(visit).find((p) => p.ref === input.prescriptionRef);
      if (rx === undefined) fail('NOT_FOUND', 'No such prescription on this visit.', { field: 'prescriptionRef' });
      await dispense(c, visit, rx, input);
      return rx;
    },
    (visit, _c, rx) => (rx === undefined ? settledFirst() : prescriptionView(visit, rx)),
  );
  return defineCommands({
    'prescription.write': command(
      ['visit'],
      (visit, c, input: ValidInput<'prescription.write'>) => write(c, visit, input),
      (visit, _c, record) => (record === undefined ? settledFirst() : prescriptionView(visit, record)),
    ),
    'prescription.list': async (input) => {
      const c = s.ctx;
      if ('workflowId' in input) {
        const wf = c.engine.get(input.workflowId);
        if (wf?.kind !== 'visit') fail('NOT_FOUND', 'No such visit on this station.', { field: 'workflowId' });
        return { items: prescriptionsOf(wf).map((rx) => prescriptionView(wf, rx)).sort(newestFirst) };
      }
      const visits = c.engine.all().filter((wf): wf is VisitWorkflow => wf.kind === 'visit' && wf.data.patient.ref === input.patientRef);
      return { items: visits.flatMap((visit) => prescriptionsOf(visit).map((rx) => prescriptionView(visit, rx))).sort(newestFirst) };
    },
    'prescription.check': command(
      ['visit'],
      (visit, c) => readBackPrescriptions(c, visit),
      (visit, _c, readBack) =>
        readBack === undefined
          ? settledFirst()
          : {
              items: prescriptionsOf(visit).map((rx) => prescriptionView(visit, rx)).sort(newestFirst),
              checkedAt: readBack.at,
              answer: readBack.answer,
              shownRef: readBack.shown?.ref ?? null,
            },
      { afterReconciling: 'run' },
    ),
    'pharmacy.openVisits': async ({ patientRef }) => {
      const c = s.ctx;
      const patient = c.patients.facts(patientRef);
      const open = await openVisitsAtExchange(c, patient.patientId);
      const held = c.engine.all().filter((wf): wf is VisitWorkflow => wf.kind === 'visit' && wf.state === 'open' && wf.data.authorizationGuid !== undefined);
      const visits = await Promise.all(
        open.map(async (visit) => {
          const here = held.find((wf) => wf.data.authorizationGuid === visit.guid);
          const reached = here?.data.forDispensing === true ? here : undefined;
          return {
            interventions: await Promise.all(visit.interventions.slice(0, 20).map(async (code) => ({ code, name: await interventionName(c, patientRef, code) }))),
            workflowId: here?.id ?? null,
            openedHere: here !== undefined && reached === undefined,
            prescription: reached === undefined ? null : await prescriptionAtExchange(c, reached),
            dispenses: (reached?.data.windowDispenses ?? []).map(dispenseView),
          };
        }),
      );
      return { visits, checkedAt: c.nowIso() };
    },
    'pharmacy.dispense': command(
      ['visit'],
      (visit, c, input: ValidInput<'pharmacy.dispense'>) => dispenseAtWindow(c, visit, input),
      (visit) => ({ dispenses: (visit.data.windowDispenses ?? []).map(dispenseView) }),
    ),
    'prescription.dispense': async (input) => {
      const { visit } = visitOf(s.ctx, input.prescriptionRef);
      return dispenseOnVisit({ ...input, workflowId: visit.id });
    },
  });
};
