// A limited pass goes only to a receiver whose hooks can enforce the limit (docs/contract.md §6, "What a receiver may
// do"): can_modify_files: false and can_run_tools: false are enforced by the pre-tool hook of the session holding the
// pass (src/core/hooks/passPermissions.ts), so a receiver whose vendor's hooks cannot refuse a tool before it runs
// (its module's `denyBeforeTool`) is refused the claim with E013 PERMISSION_DENIED, saying why and what to do. The
// receiver's vendor is the one its agent id names (the hook packs' agent ids); an agent id that names no vendor is
// not refused here (whatever its hooks are, their pre-tool hook enforces the limit).
import { delegationError } from '../../domain/delegationErrors';
import type { Handoff } from '../../domain/handoffSchema';
import { VENDOR_IDS, VENDORS, vendorOf } from '../../hooks/vendors';
import { can } from '../../hooks/vendors/vendor';

/** The limits of `h` a pre-tool hook must enforce, as they are written in the policy. */
export function toolLimits(h: Pick<Handoff, 'policy'>): string[] {
  const p = h.policy;
  return [
    ...(p?.can_modify_files === false ? ['can_modify_files: false'] : []),
    ...(p?.can_run_tools === false ? ['can_run_tools: false'] : []),
  ];
}

export function assertLimitsEnforceable(h: Handoff, agent: string): void {
  const limits = toolLimits(h);
  const vendor = vendorOf(agent);
  if (limits.length === 0 || !vendor || can(vendor.denyBeforeTool)) return;
  const able = VENDOR_IDS.filter((id) => can(VENDORS[id].denyBeforeTool));
  throw delegationError(
    'PERMISSION_DENIED',
    `${h.handoff_id} was passed with ${limits.join(' and ')}, which the pre-tool hook of its holder enforces, but ${vendor.name}'s ` +
      `hooks cannot refuse a tool before it runs: ${vendor.denyBeforeTool.no}. Nothing was changed. Claim it from an agent whose ` +
      `hooks can (${able.join(', ')}), or ask ${h.return_to ?? h.from_agent} to pass it again without ${limits.length > 1 ? 'these limits' : 'that limit'} ` +
      'or to another agent.',
    { handoff_id: h.handoff_id, agent, vendor: vendor.id, limits },
  );
}
