/**
 * How far a long call has got, for a host to show while it runs (an MCP
 * client's progress notifications). Each call has its own listener, so two
 * calls running side by side never report into each other's progress.
 */
export interface CallProgress {
  /** What the call is doing: "searching", "outlining", "running", "restoring" … */
  phase: string;
  /** How much of the phase is done (files, bytes of output); grows within a phase. */
  done: number;
  /** How much there is, when known. */
  total?: number;
  /** New output since the last report (a command's output as it comes). */
  output?: string;
}

export type ProgressListener = (progress: CallProgress) => void;

/** Tells the call's listener, if its host gave one; never throws into the tool. */
export function reportCallProgress(
  context: { progress?: ProgressListener },
  progress: CallProgress,
): void {
  try {
    context.progress?.(progress);
  } catch {
    // A host's display failing is no reason to fail the call.
  }
}
