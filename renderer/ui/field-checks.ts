// The browser's own checks of a form's fields (a required field left empty, an email without "@",
// a number out of range) speak the browser's language in a bubble the page cannot style: US English
// on a Kiswahili screen. Each field found wanting is given the reason in the language shown, when
// the browser asks (the `invalid` event, before it draws the bubble); typing into it lets the
// browser judge it afresh.
import i18next from 'i18next';

type CheckedField = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const isCheckedField = (target: EventTarget | null): target is CheckedField =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;

/** The reason, in the language shown, a field is not accepted: the first of its faults the browser found. */
function fieldFault(field: CheckedField): string {
  const { validity } = field;
  const t = i18next.t.bind(i18next);
  if (validity.valueMissing) return field instanceof HTMLSelectElement ? t('fieldChecks.chooseOne') : t('fieldChecks.fillIn');
  if (validity.badInput) return t('fieldChecks.number');
  if (validity.typeMismatch && field.type === 'email') return t('fieldChecks.email');
  if (validity.typeMismatch && field.type === 'url') return t('fieldChecks.address');
  if (validity.rangeUnderflow && 'min' in field) return t('fieldChecks.atLeast', { min: field.min });
  if (validity.rangeOverflow && 'max' in field) return t('fieldChecks.atMost', { max: field.max });
  if (validity.tooShort && 'minLength' in field) return t('fieldChecks.tooShort', { count: field.minLength });
  if (validity.tooLong && 'maxLength' in field) return t('fieldChecks.tooLong', { count: field.maxLength });
  return t('fieldChecks.check');
}

/** From now on, every field the browser checks is judged in the screen's language. */
export function checkFieldsInScreenLanguage(): void {
  const clear = (event: Event) => {
    if (isCheckedField(event.target)) event.target.setCustomValidity('');
  };
  document.addEventListener(
    'invalid',
    (event) => {
      if (!isCheckedField(event.target)) return;
      // A reason set here makes the field invalid by itself: cleared first, so what is explained is the
      // browser's own verdict (read from validity: checkValidity() would ask again, and land here again).
      event.target.setCustomValidity('');
      if (!event.target.validity.valid) event.target.setCustomValidity(fieldFault(event.target));
    },
    true,
  );
  document.addEventListener('input', clear, true);
  document.addEventListener('change', clear, true);
}
