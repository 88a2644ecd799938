/**
 * From what a server said before and after an edit to an EditValidation: the
 * status, how far it can be trusted, and what to do when it cannot. Pure.
 */
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { Strategy } from "./client.js";
import { compareDiagnostics, type LineHunk, type LspDiagnostic, type Severity } from "./match.js";

export type ValidationStatus = "passed" | "failed" | "skipped" | "uncertain";
export type ValidationConfidence = "high" | "medium" | "low" | "none";

export interface OtherFiles {
  /** Files other than the edited one that were checked (importers of it). */
  checked: string[];
  /** Importers the server did not answer for in time (their errors are unknown). */
  unchecked?: string[];
  introduced_errors: LspDiagnostic[];
  resolved_errors: LspDiagnostic[];
  /** Errors left out of the two lists above to keep the result short. */
  omitted?: number;
}

export interface EditValidation {
  status: ValidationStatus;
  validation_confidence: ValidationConfidence;
  introduced_errors: LspDiagnostic[];
  resolved_errors: LspDiagnostic[];
  /** Errors the edit caused or fixed in files that import the edited one. */
  other_files?: OtherFiles;
  server?: string;
  strategy?: Strategy;
  latency_ms?: number;
  /** Why the result is skipped or uncertain. */
  reason?: string;
  /** What to do about it: present when validation was skipped or degraded. */
  recovery_action?: string;
}

/** The edited file's own lists are cut here; other files share OTHER_FILES_CAP. */
export const OWN_CAP = 50;
export const OTHER_FILES_CAP = 20;

const SEVERITIES: Severity[] = ["error", "warning", "information", "hint"];

export function toDiagnostic(file: string, d: Diagnostic): LspDiagnostic {
  return {
    file,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    // The protocol leaves a missing severity to the client; an unknown problem counts as an error.
    severity: SEVERITIES[(d.severity ?? 1) - 1] ?? "error",
    ...(d.code === undefined ? {} : { code: d.code }),
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
  };
}

const errorsOf = (list: readonly LspDiagnostic[]) => list.filter((d) => d.severity === "error");

export function skipped(reason: string, recovery: string): EditValidation {
  return {
    status: "skipped",
    validation_confidence: "none",
    introduced_errors: [],
    resolved_errors: [],
    reason,
    recovery_action: recovery,
  };
}

export function uncertain(
  reason: string,
  recovery: string,
  extra: Partial<EditValidation> = {},
): EditValidation {
  return {
    status: "uncertain",
    validation_confidence: "low",
    introduced_errors: [],
    resolved_errors: [],
    ...extra,
    reason,
    recovery_action: recovery,
  };
}

export interface Observed {
  items: LspDiagnostic[];
  /** The server answered for this version before the deadline. */
  complete: boolean;
}

export interface Observation {
  server: string;
  /** What people call the language, and the command that checks it without a server. */
  label: string;
  checkCommand: string;
  strategy: Strategy;
  /** Undefined for a file the edit creates. */
  before: Observed | undefined;
  after: Observed;
  hunks: LineHunk[];
  others: { file: string; before: Observed; after: Observed }[];
  /** Importers left out because the server did not answer for them in time. */
  unchecked: string[];
  /** The server reported work in progress (loading, indexing) when the answer came. */
  busy: boolean;
  latencyMs: number;
}

function otherFiles(observation: Observation): OtherFiles | undefined {
  const { unchecked } = observation;
  if (observation.others.length === 0 && unchecked.length === 0) return undefined;
  const introduced: LspDiagnostic[] = [];
  const resolved: LspDiagnostic[] = [];
  for (const o of observation.others) {
    if (!o.before.complete || !o.after.complete) continue;
    const delta = compareDiagnostics(errorsOf(o.before.items), errorsOf(o.after.items), []);
    introduced.push(...delta.introduced);
    resolved.push(...delta.resolved);
  }
  const total = introduced.length + resolved.length;
  const keepIntroduced = Math.min(introduced.length, OTHER_FILES_CAP);
  const keepResolved = Math.min(resolved.length, OTHER_FILES_CAP - keepIntroduced);
  const omitted = total - keepIntroduced - keepResolved;
  return {
    checked: observation.others.map((o) => o.file),
    ...(unchecked.length > 0 ? { unchecked } : {}),
    introduced_errors: introduced.slice(0, keepIntroduced),
    resolved_errors: resolved.slice(0, keepResolved),
    ...(omitted > 0 ? { omitted } : {}),
  };
}

/**
 * The verdict. Pull answers are the server's word for that exact text (high);
 * pushed ones may come from a server that has not caught up (medium); nothing
 * at all on either side cannot tell a clean file from a server that is not
 * ready (low). A push server still indexing, or an answer that never came,
 * makes the result uncertain.
 */
export function judge(observation: Observation): EditValidation {
  const { before, after, strategy, server, label, checkCommand } = observation;
  const common = { server, strategy, latency_ms: Math.round(observation.latencyMs) };
  const beforeItems = before?.items ?? [];
  if (!after.complete || (before && !before.complete)) {
    return uncertain(
      `${server} did not report diagnostics for the ${after.complete ? "old" : "new"} text in time.`,
      `Call lsp_health (or lsp_health with action "restart" if it stays stuck), or run ${checkCommand}.`,
      common,
    );
  }
  const delta = compareDiagnostics(errorsOf(beforeItems), errorsOf(after.items), observation.hunks);
  const others = otherFiles(observation);
  const result: EditValidation = {
    status: "passed",
    validation_confidence: strategy === "pull" ? "high" : "medium",
    introduced_errors: delta.introduced.slice(0, OWN_CAP),
    resolved_errors: delta.resolved.slice(0, OWN_CAP),
    ...(others ? { other_files: others } : {}),
    ...common,
  };
  if (strategy === "push" && observation.busy) {
    return {
      ...result,
      status: "uncertain",
      validation_confidence: "low",
      reason: `${server} was still indexing, so errors may be missing or stale.`,
      recovery_action: `Validate again once lsp_health shows ${label} ready (mode "validate_only"), or run ${checkCommand}.`,
    };
  }
  const introduced = delta.introduced.length + (others?.introduced_errors.length ?? 0);
  if (introduced > 0) return { ...result, status: "failed" };
  const silent = beforeItems.length === 0 && after.items.length === 0;
  const notes = [
    silent &&
      `${server} reported nothing before or after the edit: the file is clean, or the server had not loaded the project.`,
    others?.unchecked &&
      `${others.unchecked.join(", ")} import the edited file and were not checked in time.`,
  ].filter((n): n is string => typeof n === "string");
  if (notes.length === 0) return result;
  return {
    ...result,
    ...(silent ? { validation_confidence: "low" as const } : {}),
    recovery_action: `${notes.join(" ")} Run ${checkCommand} to be sure.`,
  };
}

const where = (d: LspDiagnostic) =>
  `${d.file}:${d.line}:${d.column}${d.code === undefined ? "" : ` (${d.code})`} ${d.message.split("\n")[0]!.replace(/\.$/, "")}`;

/** One line for the model when validation needs its attention; undefined when it passed. */
export function validationNotice(v: EditValidation | undefined): string | undefined {
  if (!v || v.status === "passed") return undefined;
  if (v.status === "failed") {
    const own = v.introduced_errors;
    const other = v.other_files?.introduced_errors ?? [];
    const listed = [...own, ...other].slice(0, 5).map(where).join("; ");
    const more = own.length + other.length > 5 ? ` and ${own.length + other.length - 5} more` : "";
    const count = `${own.length} new error(s) here${other.length > 0 ? ` and ${other.length} in other files` : ""}`;
    return `Validation failed: ${count}: ${listed}${more}. Fix them, or undo the edit.`;
  }
  const label = v.status === "skipped" ? "Not validated" : "Validation uncertain";
  return `${label}: ${v.reason ?? ""} ${v.recovery_action ?? ""}`.trim();
}
