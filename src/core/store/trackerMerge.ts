// Three-way merge of AgentTracker.md for the git merge driver (docs/agentsync-documentation.md, "Merging with git").
// The humans' text merges the way git merges any text (`git merge-file`); the `## Agent Handoffs` section is not
// merged line by line at all: each version's section is set to the same placeholder before the text merge, so it
// can never conflict, and the result gets the section rendered from the merged store. Pure: the text merge is passed in.
import type { Handoff } from '../domain/handoffSchema';
import { detectEol, findSection, HANDOFFS_HEADING, updateTrackerText } from '../domain/trackerRenderer';

/** Git's own 3-way text merge: the merged text, and whether it left conflict markers. */
export type TextMerge = (base: string, ours: string, theirs: string) => { text: string; conflicted: boolean };

export interface TrackerMergeResult {
  text: string;
  /** The humans' parts conflict: the text has git's markers there, and git must report the conflict. */
  conflicted: boolean;
}

/** The section reduced to its heading, identical in every version, so the text merge has nothing to do there. */
function withPlaceholder(text: string): string {
  const found = findSection(text, HANDOFFS_HEADING);
  if (!found) return text;
  const eol = detectEol(text);
  return text.slice(0, found.start) + HANDOFFS_HEADING + eol + eol + text.slice(found.end);
}

/**
 * Merges three versions of the tracker. `handoffs` is the merged store's records (null when it could not be worked
 * out: then ours' section is kept, and the next AgentSync write regenerates it).
 */
export function mergeTracker(
  base: string,
  ours: string,
  theirs: string,
  handoffs: readonly Handoff[] | null,
  merge: TextMerge,
): TrackerMergeResult {
  const merged = merge(withPlaceholder(base), withPlaceholder(ours), withPlaceholder(theirs));
  if (handoffs) {
    try {
      return { text: updateTrackerText(merged.text, handoffs), conflicted: merged.conflicted };
    } catch {
      if (merged.conflicted) return merged; // markers may leave a block open: the human resolving it sees the rest
      throw new Error('the merged AgentTracker.md ends inside an unclosed block, so its handoffs section cannot be placed');
    }
  }
  if (merged.conflicted) return merged;
  const oursSection = findSection(ours, HANDOFFS_HEADING);
  const at = findSection(merged.text, HANDOFFS_HEADING);
  if (!oursSection || !at) return merged;
  return {
    text: merged.text.slice(0, at.start) + ours.slice(oursSection.start, oursSection.end) + merged.text.slice(at.end),
    conflicted: false,
  };
}
