/**
 * The fake model's part: which splice tools it calls, in order, with which
 * arguments, and what each client handed back as the tool's result. Every
 * fake provider (one per API) plays the same script, so the clients are
 * measured on the same calls.
 */

/** One scripted tool call: a splice tool name (not the client's name for it) and its arguments. */
export interface Step {
  tool: string;
  args: Record<string, unknown>;
}

/** What a client sent back as one tool's result, as the model would read it. */
export interface Seen {
  step: number;
  tool: string;
  /** The characters the model reads: the result's text as the API carries it. */
  text: string;
  /** The result as it arrived, for the report when something looks off. */
  raw: unknown;
}

/** The fake model's answer to one request. */
export type Turn =
  | { kind: "call"; id: string; name: string; args: Record<string, unknown> }
  | { kind: "text"; text: string };

const ID_PREFIX = "splice_step_";

export const stepId = (step: number) => `${ID_PREFIX}${step}`;

export function stepOf(id: string): number | undefined {
  if (!id.startsWith(ID_PREFIX)) return undefined;
  const n = Number(id.slice(ID_PREFIX.length));
  return Number.isInteger(n) ? n : undefined;
}

/**
 * The client's name for a splice tool among the names it offers the model:
 * the bare name, or the server's name, separators, then the tool's
 * (`mcp__splice__read`, `splice__read`, `mcp_splice_read`) — never a longer
 * tool that merely ends the same way (`mcp__splice__ast_edit` is not edit).
 */
export function clientToolName(offered: readonly string[], tool: string): string | undefined {
  const prefixed = new RegExp(`^(?:.*[_.:-])?splice[_.:-]+${tool}$`);
  return offered.find((name) => name === tool) ?? offered.find((name) => prefixed.test(name));
}

/** A scripted model: stateless, so a client's side requests (titles, summaries) cannot skew it. */
export class ScriptedModel {
  readonly seen: Seen[] = [];
  /** Requests that offered tools but not the one the script needs, for the failure message. */
  readonly missingTools: string[][] = [];

  constructor(readonly steps: readonly Step[]) {}

  /** Records results the request carries; `id` is the call id the fake provider gave. */
  record(id: string, text: string, raw: unknown): void {
    const step = stepOf(id);
    if (step === undefined || this.seen.some((s) => s.step === step)) return;
    const tool = this.steps[step]?.tool ?? "?";
    this.seen.push({ step, tool, text, raw });
  }

  /**
   * The next turn for a request whose history holds `answered` results of
   * ours and which offers the tools `offered`. A request that offers no
   * splice tool (a title or summary side request) gets plain text.
   */
  next(answered: number, offered: readonly string[]): Turn {
    const step = this.steps[answered];
    if (!step) return { kind: "text", text: "Done." };
    const name = clientToolName(offered, step.tool);
    if (!name) {
      if (offered.length > 0) this.missingTools.push([...offered]);
      return { kind: "text", text: "Done." };
    }
    return { kind: "call", id: stepId(answered), name, args: step.args };
  }
}

/** Counts our call ids among ids found in a request's history. */
export function answeredCount(ids: readonly string[]): number {
  return new Set(ids.filter((id) => stepOf(id) !== undefined)).size;
}
