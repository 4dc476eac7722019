// The order of a record's fields as the schema lists them (handoffSchema.ts), which a parse by the schema leaves them in.
import { handoffSchema } from './handoffSchema';

const FIELD_ORDER = new Map(Object.keys(handoffSchema.shape).map((k, i) => [k, i]));

/**
 * Whether the record's fields are in the schema's order, as a parse by the schema leaves them (and so as a clone that
 * parsed the record writes it): a change made by spreading new fields onto a record appends them instead.
 */
export function inSchemaOrder(h: object): boolean {
  let last = -1;
  for (const k of Object.keys(h)) {
    const at = FIELD_ORDER.get(k);
    if (at === undefined || at < last) return false;
    last = at;
  }
  return true;
}
