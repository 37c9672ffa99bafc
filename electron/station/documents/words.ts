// The documents' words in English and Kiswahili, and how each language writes money and dates.
// The Kiswahili follows the renderer's (renderer/i18n/sw.json: ankara, Jumla, Bei ya kimoja, Muhtasari
// wa kuruhusiwa kutoka …), so the paper says what the screen said. Dates are the facility's (East
// Africa Time) whatever the computer's zone, so the same visit prints the same day everywhere.
import type { DocumentLanguage, documentDischargeReasons, documentServiceTypes } from './input';

type ServiceType = (typeof documentServiceTypes)[number];
type DischargeReason = (typeof documentDischargeReasons)[number];

export interface Words {
  readonly invoiceTitle: string;
  readonly summaryTitle: string;
  readonly facilityCode: string;
  readonly invoiceNumber: string;
  readonly invoiceDate: string;
  readonly patient: string;
  readonly shaNumber: string;
  readonly visitNumber: string;
  readonly serviceType: string;
  readonly serviceTypes: Readonly<Record<ServiceType, string>>;
  readonly visitStart: string;
  readonly visitEnd: string;
  readonly admitted: string;
  readonly discharged: string;
  readonly stay: string;
  readonly lengthOfStay: (days: number) => string;
  readonly stillOpen: string;
  readonly doctor: string;
  readonly noDoctor: string;
  readonly services: string;
  readonly lineNumber: string;
  readonly date: string;
  readonly description: string;
  readonly quantity: string;
  readonly unitPrice: string;
  readonly amount: string;
  readonly subtotal: (service: string) => string;
  readonly total: string;
  readonly diagnoses: string;
  readonly dischargeReason: string;
  readonly reasons: Readonly<Record<DischargeReason, string>>;
  readonly referredTo: string;
  readonly notes: string;
  readonly madeBy: (date: string) => string;
  readonly page: (page: number, pages: number) => string;
}

const en: Words = {
  invoiceTitle: 'Invoice',
  summaryTitle: 'Discharge summary',
  facilityCode: 'Facility code',
  invoiceNumber: 'Invoice number',
  invoiceDate: 'Invoice date',
  patient: 'Patient',
  shaNumber: 'SHA number',
  visitNumber: 'Visit number',
  serviceType: 'Service type',
  serviceTypes: { OUTPATIENT: 'Outpatient', INPATIENT: 'Inpatient', CAPITATION: 'Outpatient (capitation)', EMERGENCY: 'Emergency' },
  visitStart: 'Visit started',
  visitEnd: 'Visit ended',
  admitted: 'Admitted',
  discharged: 'Discharged',
  stay: 'Length of stay',
  lengthOfStay: (days) => (days === 1 ? '1 day' : `${days} days`),
  stillOpen: 'still open',
  doctor: 'Attending doctor',
  noDoctor: 'none on the claim',
  services: 'Services',
  lineNumber: 'No.',
  date: 'Date',
  description: 'Service or item',
  quantity: 'Quantity',
  unitPrice: 'Unit price (KES)',
  amount: 'Amount (KES)',
  subtotal: (service) => `Subtotal, ${service}`,
  total: 'Total',
  diagnoses: 'Diagnoses',
  dischargeReason: 'Reason for discharge',
  reasons: { RECOVERED: 'Recovered', REFERRED: 'Referred to another facility', ABSCONDED: 'Left without permission', OTHER: 'Other', DECEASED: 'Died' },
  referredTo: 'Referred to',
  notes: 'Notes',
  madeBy: (date) => `Made by the Idhini station, ${date}.`,
  page: (page, pages) => `Page ${page} of ${pages}`,
};

const sw: Words = {
  invoiceTitle: 'Ankara',
  summaryTitle: 'Muhtasari wa kuruhusiwa kutoka',
  facilityCode: 'Msimbo wa kituo cha afya',
  invoiceNumber: 'Nambari ya ankara',
  invoiceDate: 'Tarehe ya ankara',
  patient: 'Mgonjwa',
  shaNumber: 'Nambari ya SHA',
  visitNumber: 'Nambari ya ziara',
  serviceType: 'Aina ya huduma',
  serviceTypes: { OUTPATIENT: 'Mgonjwa wa nje', INPATIENT: 'Mgonjwa wa kulazwa', CAPITATION: 'Mgonjwa wa nje (malipo ya kila mtu)', EMERGENCY: 'Dharura' },
  visitStart: 'Ziara ilianza',
  visitEnd: 'Ziara iliisha',
  admitted: 'Alilazwa',
  discharged: 'Aliruhusiwa kutoka',
  stay: 'Muda wa kulazwa',
  lengthOfStay: (days) => (days === 1 ? 'siku 1' : `siku ${days}`),
  stillOpen: 'bado inaendelea',
  doctor: 'Daktari anayemhudumia',
  noDoctor: 'hakuna kwenye dai',
  services: 'Huduma',
  lineNumber: 'Na.',
  date: 'Tarehe',
  description: 'Huduma au kitu',
  quantity: 'Idadi',
  unitPrice: 'Bei ya kimoja (KES)',
  amount: 'Kiasi (KES)',
  subtotal: (service) => `Jumla ndogo, ${service}`,
  total: 'Jumla',
  diagnoses: 'Utambuzi',
  dischargeReason: 'Sababu ya kuruhusiwa kutoka',
  reasons: { RECOVERED: 'Amepona', REFERRED: 'Amepelekwa hospitali nyingine', ABSCONDED: 'Ametoroka bila ruhusa', OTHER: 'Nyingine', DECEASED: 'Amefariki' },
  referredTo: 'Amepewa rufaa kwenda',
  notes: 'Maelezo',
  madeBy: (date) => `Imetengenezwa na kompyuta ya Idhini, ${date}.`,
  page: (page, pages) => `Ukurasa ${page} kati ya ${pages}`,
};

export function wordsFor(language: DocumentLanguage): Words {
  return language === 'sw' ? sw : en;
}

/** The facility's zone: Kenya keeps East Africa Time all year. */
const FACILITY_ZONE = 'Africa/Nairobi';

export interface Formats {
  /** Shillings as the language writes them, from a whole number of cents: "Ksh 1,500.00". */
  readonly money: (cents: number) => string;
  /** Shillings without the currency, for a table whose column header names it: "1,500.00". */
  readonly amount: (cents: number) => string;
  readonly quantity: (value: number) => string;
  /** A day ("5 Mar 2026"); a charge date given as a day is that day wherever the computer is. */
  readonly day: (value: string) => string;
  /** A day and a time in the facility's zone: "5 Mar 2026, 13:00" (Kiswahili: "5 Mac 2026, saa 13:00"). */
  readonly dayAndTime: (value: string) => string;
}

export function formatsFor(language: DocumentLanguage): Formats {
  const locale = language === 'sw' ? 'sw-KE' : 'en-KE';
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'KES', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const amount = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const quantity = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const dayOnly = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const dayInZone = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: FACILITY_ZONE });
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: FACILITY_ZONE });
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
  return {
    money: (cents) => money.format(cents / 100),
    amount: (cents) => amount.format(cents / 100),
    quantity: (value) => quantity.format(value),
    day: (value) => (isDay(value) ? dayOnly.format(new Date(`${value}T00:00:00Z`)) : dayInZone.format(new Date(value))),
    dayAndTime: (value) => {
      if (isDay(value)) return dayOnly.format(new Date(`${value}T00:00:00Z`));
      const at = new Date(value);
      return language === 'sw' ? `${dayInZone.format(at)}, saa ${time.format(at)}` : `${dayInZone.format(at)}, ${time.format(at)}`;
    },
  };
}
