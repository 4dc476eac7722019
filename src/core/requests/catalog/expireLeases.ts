// expireLeases: leases that ran out, and passed work that timed out, go back (docs/contract.md §4, §6).
import { expireLeases as run } from '../actions/expireLeases';
import { paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const expireLeases = defineAction({
  params: paramSchemas.expireLeases,
  readOnly: false,
  sweepsTimeouts: true,
  description:
    'Send in-progress handoffs whose lease has run out (their holder stopped sending heartbeats) back to the queue, and hand passed ' +
    'work that timed out back to its origin (E010 / E022). Answers { released, timed_out, returned }.',
  run: (tx, ctx) => run(tx, ctx),
});
