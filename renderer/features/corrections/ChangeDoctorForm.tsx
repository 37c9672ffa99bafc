// "Change the doctor" folded behind one button, then the doctor's fields (with the registry look-up)
// and the command that changes him: shared by the emergency claim and the preauthorization, which
// differ only in the command and their words.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { run, useWorkflows } from '../../state/workflows';
import { Button } from '../../ui/Button';
import { DoctorFields, doctorInput, emptyDoctor, isDoctorComplete } from '../shared/DoctorFields';
import type { DoctorDraft } from '../shared/DoctorFields';

export function ChangeDoctorForm({
  workflowId,
  command,
  explain,
  submitLabel,
}: {
  readonly workflowId: string;
  readonly command: 'emergency.changeDoctor' | 'elective.changeDoctor';
  readonly explain: string;
  readonly submitLabel: string;
}) {
  const { t } = useTranslation();
  const pending = useWorkflows((s) => s.pending[workflowId]) === command;
  const [open, setOpen] = useState(false);
  const [doctor, setDoctor] = useState<DoctorDraft>(emptyDoctor);
  const [tried, setTried] = useState(false);
  if (!open) return <Button onClick={() => setOpen(true)}>{t('visit.doctor.change')}</Button>;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (!isDoctorComplete(doctor)) return;
        void run(workflowId, command, { workflowId, doctor: doctorInput(doctor) }).then((answer) => {
          if (!answer.ok) return;
          setOpen(false);
          setTried(false);
          setDoctor(emptyDoctor);
        });
      }}
    >
      <p className="muted">{explain}</p>
      <DoctorFields value={doctor} onChange={setDoctor} error={tried && !isDoctorComplete(doctor) ? t('doctor.numberNeeded') : undefined} />
      <div className="actions">
        <Button type="submit" busy={pending}>
          {submitLabel}
        </Button>
        <Button onClick={() => setOpen(false)}>{t('corrections.keep')}</Button>
      </div>
    </form>
  );
}
