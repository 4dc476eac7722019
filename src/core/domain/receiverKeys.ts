// The pass-over policy keys of what a receiver may do and what its report must be (docs/contract.md §6, "What a
// receiver may do"): kept on a pass only when a layer sets them (passOverPolicy.ts), and a pass that stores one needs
// store version 3 (storeVersion.ts). One list for both.
export const RECEIVER_KEYS = [
  'can_modify_files',
  'can_run_tools',
  'max_compute_time_ms',
  'max_context_size_bytes',
  'validate_output',
  'output_schema',
] as const;

export type ReceiverKey = (typeof RECEIVER_KEYS)[number];
