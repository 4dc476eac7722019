// Whether a process of this pid namespace is running: signal 0 checks without signalling. EPERM means it exists
// but belongs to another user. Used for locks, drop-zone claims and temp files left by killed writers; a pid from
// another namespace or host says nothing here, so callers check those first.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
