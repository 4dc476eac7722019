// Verbs added by later features (watch, mcp, merge-driver) register here so main.ts stays unchanged.
import type { Verb } from './handoffVerbs';
import { watchVerb } from './watchVerb';

export const EXTRA_VERBS: Record<string, Verb> = { watch: watchVerb };
