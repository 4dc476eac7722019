// AgentTracker.md's stat as one string (inode, size, and modification and change times in nanoseconds), recorded in
// state.json's trackerSection after each render. Every process checks at start that the tracker is still the file
// the last render wrote (derivedFiles.ts); the same stat says so without reading and hashing a few hundred KB.
// Any write to the file, in place or by rename, moves its change time, which no tool can set back; a stat that
// differs only falls back to the hash.
import * as fs from 'node:fs';

/** The file's stat key, or null when it does not exist (or cannot be stat'ed). */
export function trackerStatKey(file: string): string | null {
  try {
    const st = fs.lstatSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null;
  }
}
