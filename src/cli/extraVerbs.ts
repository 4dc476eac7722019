// Verbs added by later features (watch, mcp, merge-driver) register here so main.ts stays unchanged.
import type { Verb } from './handoffVerbs';
import { watchVerb } from './watchVerb';
import { mcpVerb } from './mcpVerb';
import { mergeDriverVerb } from './mergeDriverVerb';
import { trackerMergeVerb } from './trackerMergeVerb';
import { hookVerb } from './hookVerb';
import { assignVerb, passVerb, returnVerb } from './delegationVerbs';
import { policyVerb } from './policyVerb';
import { agentsVerb } from './agentsVerb';
import { adoptVerb } from './adoptVerb';
import { worktreeVerb } from './worktreeVerb';
import { reviewVerb } from './reviewVerb';

export const EXTRA_VERBS: Record<string, Verb> = {
  watch: watchVerb,
  mcp: mcpVerb,
  'merge-driver': mergeDriverVerb,
  'merge-tracker': trackerMergeVerb,
  hook: hookVerb,
  pass: passVerb,
  return: returnVerb,
  assign: assignVerb,
  review: reviewVerb,
  policy: policyVerb,
  agents: agentsVerb,
  adopt: adoptVerb,
  worktree: worktreeVerb,
};
