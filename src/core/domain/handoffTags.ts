// Agent text tags (docs/contract.md §6): `[pass_over: audit]` … `Reason: code_review`, and `[return_to: alice]`.
import { normalizeAgentId } from './agentId';

export interface PassOverTag {
  to: string;
  summary: string;
  reason: string | null;
}

export interface ReturnTag {
  returnTo: string;
  summary: string;
}

const PASS_TAG = /\[pass_over:\s*([^\]\r\n]+?)\s*\]/i;
const RETURN_TAG = /\[return_to:\s*([^\]\r\n]+?)\s*\]/i;
const REASON_LINE = /^\s*Reason:\s*(.+?)\s*$/im;
const SUMMARY_LINE = /^\s*Summary(?: of work)?:\s*(.*)$/im;

/** The text after the tag without the Reason line, or the explicit "Summary:" text when there is one. */
function summaryAfter(text: string, tagEnd: number): string {
  const rest = text.slice(tagEnd).replace(REASON_LINE, '').trim();
  const inline = SUMMARY_LINE.exec(rest);
  const body =
    inline && inline[1].trim() ? `${inline[1].trim()}\n${rest.slice(inline.index + inline[0].length)}` : rest.replace(SUMMARY_LINE, '');
  return body.trim() || text.slice(0, tagEnd).replace(PASS_TAG, '').replace(RETURN_TAG, '').trim();
}

export function parsePassOverTag(text: string): PassOverTag | null {
  const m = PASS_TAG.exec(text);
  if (!m) return null;
  const reason = REASON_LINE.exec(text.slice(m.index));
  return { to: normalizeAgentId(m[1]), summary: summaryAfter(text, m.index + m[0].length), reason: reason ? reason[1] : null };
}

export function parseReturnTag(text: string): ReturnTag | null {
  const m = RETURN_TAG.exec(text);
  if (!m) return null;
  return { returnTo: normalizeAgentId(m[1]), summary: summaryAfter(text, m.index + m[0].length) };
}

/** The text without its tags and their Reason line: what a tagged note says once the tag has been acted on. */
export function withoutTags(text: string): string {
  return text.replace(PASS_TAG, '').replace(RETURN_TAG, '').replace(REASON_LINE, '').trim();
}
