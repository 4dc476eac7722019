// AgentTracker.md's `## Agent Handoffs` section as a file: rendered into the tracker after every write, every other
// byte kept (docs/agentsync-documentation.md, "What a write costs"). A proof in state.json says where the section of
// the file last written is, so the next process skips the Markdown parse; a process that keeps writing splices the
// new section's bytes into the file it wrote itself while the file still holds exactly those bytes.
import * as fs from 'node:fs';
import { assertRegularOrMissing, writeFileAtomic } from '../disk/atomicFile';
import { contentHash } from './storeStamp';
import { fileStatKeyOf } from '../disk/fileStatKey';
import { adoptRenderedSection, detectEol, renderHandoffsSectionParts, SECTION_FORMAT, spliceHandoffs } from '../domain/trackerRenderer';
import type { Handoff } from '../domain/handoffSchema';
import type { DerivedWriteOptions } from './derivedWriteOptions';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

/**
 * Where the last render put the `## Agent Handoffs` section, and the SHA-256 of the whole file it wrote (kept in
 * state.json as `trackerSection`). A tracker whose bytes still hash to it is that file, so the section is where it
 * says, and the next render skips the Markdown parse; any edit (a human's, a session section's) changes the hash.
 */
export interface TrackerSectionProof {
  sha256: string;
  start: number;
  end: number;
  /** trackerRenderer's SECTION_FORMAT when it was written. */
  format?: number;
  /** The file's stat right after it was written (disk/fileStatKey.ts): the start-up check's shortcut past the hash. */
  stat?: string;
}

function proofOf(v: unknown): TrackerSectionProof | null {
  const p = v as Partial<TrackerSectionProof> | null;
  const ok = p && typeof p.sha256 === 'string' && Number.isInteger(p.start) && Number.isInteger(p.end) && p.start! <= p.end!;
  return ok ? (p as TrackerSectionProof) : null;
}

/**
 * Renders the section into AgentTracker.md (a fresh one if missing); returns where it is now, for the next render.
 * `renderedFrom`: the handoffs the proven section was rendered from, whose blocks are then reused.
 */
export function renderTrackerFile(
  layout: WorkspaceLayout,
  handoffs: readonly Handoff[],
  options: DerivedWriteOptions = {},
  previous: unknown = null,
  renderedFrom?: readonly Handoff[],
): TrackerSectionProof {
  assertRegularOrMissing(layout.trackerFile);
  let bytes: Buffer | null = null;
  try {
    bytes = fs.readFileSync(layout.trackerFile);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const mine = lastWritten.get(layout.trackerFile);
  if (bytes && mine && bytes.equals(mine.bytes)) return spliceWrittenTracker(layout, bytes, mine, handoffs, options);
  const hash = bytes ? contentHash(bytes) : null;
  const text = bytes ? bytes.toString('utf8') : '# Agent Tracker\n\n';
  const proof = proofOf(previous);
  const known = proof && bytes && proof.end <= text.length && hash === proof.sha256 ? proof : undefined;
  if (known && renderedFrom && proof?.format === SECTION_FORMAT) {
    adoptRenderedSection(text.slice(known.start, known.end), renderedFrom, detectEol(text));
  }
  const out = spliceHandoffs(text, handoffs, known);
  const outBytes = Buffer.from(out.text);
  if (!bytes || !outBytes.equals(bytes))
    writeFileAtomic(layout.trackerFile, outBytes, { durable: false, beforeRename: options.beforeRename });
  const written: TrackerSectionProof = {
    sha256: contentHash(outBytes),
    ...out.section,
    format: SECTION_FORMAT,
    ...statOf(layout.trackerFile),
  };
  const startByte = Buffer.byteLength(out.text.slice(0, out.section.start));
  const endByte = startByte + Buffer.byteLength(out.text.slice(out.section.start, out.section.end));
  remember(layout.trackerFile, { ...written, startByte, endByte, eol: detectEol(out.text), bytes: outBytes });
  return written;
}

function statOf(file: string): { stat?: string } {
  const stat = fileStatKeyOf(file);
  return stat ? { stat } : {};
}

/**
 * The tracker this process last wrote, per file: while the file still holds exactly these bytes, its section's bytes
 * are known. The bytes are kept (a few hundred KB at 1,000 open handoffs) because comparing them costs a fraction of
 * hashing the file again on every write.
 */
interface WrittenTracker extends TrackerSectionProof {
  startByte: number;
  endByte: number;
  eol: string;
  bytes: Buffer;
}
const lastWritten = new Map<string, WrittenTracker>();

function remember(file: string, w: WrittenTracker): void {
  lastWritten.delete(file);
  lastWritten.set(file, w);
  if (lastWritten.size > 16) lastWritten.delete(lastWritten.keys().next().value!); // many workspaces in one process (tests)
}

/**
 * The file is byte for byte the tracker this process wrote (same hash): the new section's bytes go between the
 * same prefix and suffix bytes, with no decode of the file and no encode of the unchanged records (a write's
 * largest cost after the store's own; docs/agentsync-documentation.md, "What a write costs").
 */
function spliceWrittenTracker(
  layout: WorkspaceLayout,
  bytes: Buffer,
  mine: WrittenTracker,
  handoffs: readonly Handoff[],
  options: DerivedWriteOptions,
): TrackerSectionProof {
  const section = renderHandoffsSectionParts(handoffs, mine.eol);
  const outBytes = Buffer.concat([bytes.subarray(0, mine.startByte), ...section.parts, bytes.subarray(mine.endByte)]);
  if (!outBytes.equals(bytes)) writeFileAtomic(layout.trackerFile, outBytes, { durable: false, beforeRename: options.beforeRename });
  const sectionBytes = section.parts.reduce((n, b) => n + b.length, 0);
  const written: TrackerSectionProof = {
    sha256: contentHash(outBytes),
    start: mine.start,
    end: mine.start + section.length,
    format: SECTION_FORMAT,
    ...statOf(layout.trackerFile),
  };
  remember(layout.trackerFile, {
    ...written,
    startByte: mine.startByte,
    endByte: mine.startByte + sectionBytes,
    eol: mine.eol,
    bytes: outBytes,
  });
  return written;
}
