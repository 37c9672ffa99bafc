// The identification types the exchange accepts (contract: idTypes), in the order nurses use them.
import type { IdType } from './store';

export const idTypes = [
  'National ID',
  'ClientRegistry ID',
  'Birth Certificate',
  'Birth Notification',
  'Alien ID',
  'Refugee ID',
  'Mandate Number',
] as const satisfies readonly IdType[];
