// The one stepper every flow shows: where this patient stands, from cover to the claim submitted.
// An ordinary visit: Cover → Consent → Visit → Authorize → Submitted; a planned admission adds the
// preauthorization after consent; an emergency claim is opened first and the patient identified
// later: Claim → Identified → Submitted. The step is read from the workflow's state (and, before any
// workflow, from the look-up's answer). The labels avoid the screens' fixed words ("Covered",
// "Visit open"), so a search by those finds the verdict and the visit's state, not the stepper.
import { useTranslation } from 'react-i18next';
import type { PatientSummary, WorkflowView } from '../../../electron/contract';
import { Stepper } from '../../ui/Stepper';
import type { Step, StepState } from '../../ui/Stepper';

type Flow = 'visit' | 'elective' | 'emergency';
type StepKey = 'cover' | 'consent' | 'preauth' | 'visit' | 'authorize' | 'submitted' | 'claim' | 'identified';

const flows: Readonly<Record<Flow, readonly StepKey[]>> = {
  visit: ['cover', 'consent', 'visit', 'authorize', 'submitted'],
  elective: ['cover', 'consent', 'preauth', 'visit', 'authorize', 'submitted'],
  emergency: ['claim', 'identified', 'submitted'],
};

/** The steps done, the one now (or the one that failed) — the rest are to come. */
interface Position {
  readonly flow: Flow;
  readonly done: readonly StepKey[];
  readonly current: StepKey | null;
  readonly failed?: StepKey;
}

function steps(position: Position, label: (key: StepKey) => string): Step[] {
  return flows[position.flow].map((key) => {
    const state: StepState = key === position.failed ? 'failed' : position.done.includes(key) ? 'done' : key === position.current ? 'current' : 'todo';
    return { key, label: label(key), state };
  });
}

/** Before any workflow: the look-up's answer, and the flow the chosen service starts. */
export function summaryPosition(summary: PatientSummary, startsWith: 'visit' | 'elective' | 'emergency'): Position {
  if (startsWith === 'emergency') return { flow: 'emergency', done: [], current: 'claim' };
  if (!summary.covered) return { flow: startsWith, done: [], current: null, failed: 'cover' };
  return { flow: startsWith, done: ['cover'], current: 'consent' };
}

export function viewPosition(view: WorkflowView): Position {
  switch (view.kind) {
    case 'consent':
      if (view.state === 'cancelled') return { flow: 'visit', done: ['cover'], current: null, failed: 'consent' };
      if (view.state === 'verifying') return { flow: 'visit', done: ['cover'], current: 'consent' };
      return { flow: 'visit', done: ['cover', 'consent'], current: 'visit' };
    case 'elective': {
      const flow = 'elective';
      switch (view.state) {
        case 'verifying':
          return { flow, done: ['cover'], current: 'consent' };
        case 'cancelled':
          return view.preauth === null ? { flow, done: ['cover'], current: null, failed: 'consent' } : { flow, done: ['cover', 'consent'], current: null, failed: 'preauth' };
        case 'preauth-rejected':
          return { flow, done: ['cover', 'consent'], current: null, failed: 'preauth' };
        case 'verified':
        case 'creating-preauth':
        case 'awaiting-doctor':
        case 'awaiting-payer':
          return { flow, done: ['cover', 'consent'], current: 'preauth' };
        case 'reconciling':
          return view.preauth?.status === 'FINALISED' ? { flow, done: ['cover', 'consent', 'preauth'], current: 'visit' } : { flow, done: ['cover', 'consent'], current: 'preauth' };
        case 'finalised':
        case 'visit-day-verifying':
        case 'opening-visit':
        case 'visit-opened':
          return { flow, done: ['cover', 'consent', 'preauth'], current: 'visit' };
      }
      break;
    }
    case 'visit': {
      const flow = view.intervention.scenario === 'elective-preauth' ? 'elective' : 'visit';
      const before: StepKey[] = flow === 'elective' ? ['cover', 'consent', 'preauth'] : ['cover', 'consent'];
      if (view.state === 'failed') return { flow, done: before, current: null, failed: 'visit' };
      if (view.state === 'closing') return { flow, done: [...before, 'visit'], current: 'authorize' };
      if (view.state === 'closed') return { flow, done: [...before, 'visit', 'authorize', 'submitted'], current: null };
      return { flow, done: before, current: 'visit' };
    }
    case 'discharge': {
      const flow = view.intervention.scenario === 'elective-preauth' ? 'elective' : 'visit';
      const before: StepKey[] = flow === 'elective' ? ['cover', 'consent', 'preauth', 'visit'] : ['cover', 'consent', 'visit'];
      if (view.state === 'verifying') return { flow, done: before, current: 'authorize' };
      if (view.state === 'cancelled') return { flow, done: before.slice(0, -1), current: 'visit' };
      if (view.state === 'discharged' || view.state === 'submitted') return { flow, done: [...before, 'authorize', 'submitted'], current: null };
      return { flow, done: [...before, 'authorize'], current: 'submitted' };
    }
    case 'emergency': {
      const flow = 'emergency';
      switch (view.state) {
        case 'creating':
        case 'unconfirmed':
          return { flow, done: [], current: 'claim' };
        case 'not-created':
          return { flow, done: [], current: null, failed: 'claim' };
        case 'open-unidentified':
        case 'identifying':
          return { flow, done: ['claim'], current: 'identified' };
        case 'open-identified':
        case 'submitting':
        case 'reconciling':
          return { flow, done: view.patient === null ? ['claim'] : ['claim', 'identified'], current: 'submitted' };
        case 'submitted':
          return { flow, done: view.patient === null ? ['claim', 'submitted'] : ['claim', 'identified', 'submitted'], current: null };
        case 'window-expired':
          return { flow, done: view.patient === null ? ['claim'] : ['claim', 'identified'], current: null, failed: 'submitted' };
      }
    }
  }
  return { flow: 'visit', done: [], current: null };
}

export function PatientSteps({ position }: { readonly position: Position }) {
  const { t } = useTranslation();
  return <Stepper label={t('steps.label')} steps={steps(position, (key) => t(`steps.${key}`))} />;
}
