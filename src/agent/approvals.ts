/**
 * Asking a person before a call that changes something: the call's preview
 * (the diff, the command) and a question answered yes, no (optionally with a
 * reason the model is told) or always (for every call of that kind for the
 * rest of this session). `--yes` approves everything without asking.
 */
import type { CallInfo } from "../toolkit/index.js";
import { frame } from "./show.js";
import { printable, type Terminal } from "./terminal.js";

export type Decision =
  | { approved: true }
  | { approved: false; reason?: string; interrupted?: boolean; noAnswer?: boolean };

export type Reply = { kind: "yes" } | { kind: "always" } | { kind: "no"; reason?: string };

/** What "always" covers, short for the question and long once chosen. */
const KINDS: Record<CallInfo["kind"], { short: string; long: string }> = {
  read: { short: "reads", long: "reads" },
  edit: { short: "file changes", long: "file changes (edit, write, rollback, undo)" },
  run: { short: "commands", long: "commands (run)" },
};

/** "y", "yes", "a", "always", "n", "no", "n use tabs", "no: not that file"; anything else is undefined. */
export function parseReply(text: string): Reply | undefined {
  const t = text.trim();
  if (/^(y|yes)$/i.test(t)) return { kind: "yes" };
  if (/^(a|always)$/i.test(t)) return { kind: "always" };
  const no = /^(n|no)(?:$|[\s,.:;!-]+([\s\S]*))$/i.exec(t);
  if (!no) return undefined;
  const reason = no[2]?.trim();
  return reason ? { kind: "no", reason } : { kind: "no" };
}

/** What the model reads for a declined call. */
export function declineMessage(info: Pick<CallInfo, "summary">, decision: Decision): string {
  if (decision.approved) throw new Error("the call was approved");
  const what = `The person declined this call (${info.summary}); it did not run and nothing changed.`;
  if (decision.noAnswer) {
    return `${what} No one was there to approve it (input ended; scripts pass --yes to approve calls). Finish without it or explain what you would do.`;
  }
  if (decision.reason)
    return `${what} Their reason: "${decision.reason}". Take it into account before going on.`;
  return `${what} They gave no reason: do not repeat it as is; take another approach or ask them what they want.`;
}

/**
 * Shell syntax that could chain, substitute or redirect: `npm test && rm -rf ~`
 * starts with "npm test" too. A command holding any of it always asks.
 */
const SHELL_SYNTAX = /[;&|<>$`()\\\n\r{}]/;

/**
 * The allow rule a command matches: it is the rule's words, or those words and
 * further arguments after a space, with no shell syntax anywhere in it.
 */
export function allowedBy(command: string, rules: readonly string[]): string | undefined {
  const c = command.trim();
  if (SHELL_SYNTAX.test(c)) return undefined;
  return rules.find((rule) => c === rule || c.startsWith(`${rule} `));
}

export class Approvals {
  readonly #yes: boolean;
  readonly #always = new Set<CallInfo["kind"]>();
  readonly #allow: readonly string[];

  constructor(yes: boolean, allow: readonly string[] = []) {
    this.#yes = yes;
    this.#allow = allow;
  }

  /** What runs without asking besides reads, for /tools. */
  standing(): string[] {
    if (this.#yes) return ["everything (--yes)"];
    const rules = this.#allow.map((r) => `"${r}"`).join(", ");
    return [
      ...[...this.#always].map((kind) => `${KINDS[kind].long} (always)`),
      ...(rules ? [`commands starting with ${rules} (allow rules)`] : []),
    ];
  }

  /** Whether the call runs without asking. */
  allows(info: CallInfo): boolean {
    if (!info.needs_approval || this.#yes || this.#always.has(info.kind)) return true;
    return info.kind === "run" && allowedBy(info.subject, this.#allow) !== undefined;
  }

  async ask(
    info: CallInfo,
    preview: string,
    terminal: Terminal,
    signal: AbortSignal,
  ): Promise<Decision> {
    const summary = printable(info.summary);
    terminal.line(terminal.paint("bold", `? ${summary}`));
    if (preview.trim() && preview.trim() !== info.summary) {
      terminal.line(frame(preview, terminal));
    }
    const kind = KINDS[info.kind];
    const question = `Allow ${summary}? [y]es [n]o (+ reason: "n use tabs") [a]lways for ${kind.short}: `;
    for (;;) {
      const answer = await terminal.ask(question, signal);
      if (answer.kind === "interrupted") return { approved: false, interrupted: true };
      if (answer.kind === "end") return { approved: false, noAnswer: true };
      const reply = parseReply(answer.text);
      if (!reply) {
        terminal.line("Answer y (yes), n (no, optionally followed by a reason), or a (always).");
        continue;
      }
      if (reply.kind === "always") {
        this.#always.add(info.kind);
        terminal.line(`Approving ${kind.long} for the rest of this session.`);
      }
      return reply.kind === "no"
        ? { approved: false, ...(reply.reason ? { reason: reply.reason } : {}) }
        : { approved: true };
    }
  }
}
