// A file's identity-and-change stat as one string: device, inode, size, and modification and change times in
// nanoseconds. Any write to the file, in place or by rename, moves its change time, which no tool can set back; so a
// key equal to one recorded after AgentSync wrote or checked the file says it is still that file (a key that differs
// only means "check the bytes"). Used by the store's stamp (store/storeStamp.ts) and the tracker's (store/derivedFiles.ts).
import * as fs from 'node:fs';

/** The key of a stat already taken. */
export function fileStatKey(st: fs.BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** The key of the file at `file` (not following a symlink), or null when it does not exist or cannot be stat'ed. */
export function fileStatKeyOf(file: string): string | null {
  try {
    return fileStatKey(fs.lstatSync(file, { bigint: true }));
  } catch {
    return null;
  }
}
