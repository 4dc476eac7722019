// heartbeat: the holder renews its lease (docs/contract.md §4).
import { heartbeat as run } from '../actions/updateHandoffFields';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const heartbeat = defineAction({
  params: paramSchemas.heartbeat,
  readOnly: false,
  description: 'Renew the lease `agent` holds on a claimed handoff, so it is not expired and released. Answers { handoff }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p) }),
});
