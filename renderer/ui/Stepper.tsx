// Where this patient stands, step by step: done (✓), the one now, the ones to come, or a step that
// failed (✕). The step now is marked for screen readers too (aria-current="step").
import { useTranslation } from 'react-i18next';

export type StepState = 'done' | 'current' | 'todo' | 'failed';

export interface Step {
  readonly key: string;
  readonly label: string;
  readonly state: StepState;
}

export function Stepper({ steps, label }: { readonly steps: readonly Step[]; readonly label: string }) {
  const { t } = useTranslation();
  return (
    <ol className="stepper" aria-label={label}>
      {steps.map((step, index) => (
        <li key={step.key} className={`stepper-step stepper-${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined}>
          <span className="stepper-mark" aria-hidden="true">
            {step.state === 'done' ? '✓' : step.state === 'failed' ? '✕' : index + 1}
          </span>
          <span className="stepper-label">
            {step.label}
            <span className="visually-hidden">
              {' — '}
              {t(`steps.state.${step.state}`)}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
