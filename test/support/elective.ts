// The demo world's elective admission that the station tests and the data-folder generator ask a
// preauth for: a hernia repair by the surgeon, two nights in January 2030, one written once.

/** The surgeon of the demo world's elective admissions (flow A). */
export const SURGEON = { identificationType: 'registration_number', identificationNumber: 'A23456', regulationBody: 'KMPDC' };

/** The preauth request's fields (clinical notes apart: some tests send none). */
export const HERNIA_PREAUTH = {
  serviceStart: '2030-01-15',
  serviceEnd: '2030-01-17',
  requestedAmountKes: 65_000,
  diagnoses: [{ code: 'DD51' }],
  doctor: SURGEON,
  notificationEmail: 'claims@hospital.example',
};

export const HERNIA_NOTES = 'Reducible right inguinal hernia';
