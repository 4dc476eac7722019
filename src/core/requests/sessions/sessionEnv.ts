// What a session action may use (startSession, endSession, status, health): its own file, so the actions and the
// consented checks they run both read it without importing each other.
import type { AgentSyncConfig } from '../../domain/configSchema';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import type { HealthOptions } from './healthChecks';

/** What a session action may use; `prepare` builds it before the store lock is taken. */
export interface SessionEnv {
  layout: WorkspaceLayout;
  config: AgentSyncConfig;
  /** How health checks run for this request: cancellation, progress, or skipped (the editor in an untrusted folder). */
  healthOptions?: HealthOptions;
}
