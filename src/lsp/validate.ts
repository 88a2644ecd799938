/**
 * Edit validation: ask the file's language server for diagnostics of the old
 * and the new text (observe.ts) and report what the edit introduced and
 * resolved, in the file and in the files that import it. Never throws and
 * never waits past its deadline: a missing server is `skipped`, a silent or
 * crashing one `uncertain` (outcomes.ts).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { freshMemo } from "../util/fresh-memo.js";
import { isInside } from "../util/paths.js";
import { type LspClient, LspTimeout } from "./client.js";
import { type ColdStart, notWaiting } from "./cold-start.js";
import {
  type ObserveScope,
  observe,
  observeAll,
  type Prepared,
  type ValidationInput,
} from "./observe.js";
import { failure, loud, quiet, timedOut, unavailable, type ValidationOutcome } from "./outcomes.js";
import { type ServerRegistry, type ServerState, sharedRegistry } from "./registry.js";
import {
  LANGUAGES,
  type Language,
  type LanguageId,
  type Launch,
  languageById,
  languageOf,
  runnable,
  SERVERS,
  type ServerSpec,
} from "./servers.js";
import { judge, type Observation, skipped, uncertain } from "./verdict.js";

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** Project files are looked for on every edit; one made meanwhile is seen within 2 s. */
const markerExists = freshMemo(2_000, (path: string) => existsSync(path));

/** tsgo (an add-on) when it is installed, else typescript-language-server, which ships with splice. */
function defaultTypescriptServer(): "tsgo" | "typescript-language-server" {
  return SERVERS.tsgo!.resolve() ? "tsgo" : "typescript-language-server";
}

export interface LspOptions {
  /** The TypeScript/JavaScript server: "tsgo" (the TypeScript 7 native server, the default when installed) or "typescript-language-server". */
  typescript?: "tsgo" | "typescript-language-server";
  /** Another command for a language's server, or false to never validate that language. */
  servers?: Partial<Record<LanguageId, { command: string; args?: string[] } | false>>;
  /** The longest one validation may take, a cold start included (default 10,000 ms). */
  timeoutMs?: number;
  /** How many files that import the edited one are checked too (default 5; 0 turns it off). */
  otherFiles?: number;
  /**
   * How long those files may take, before and after the change (default 300 ms each): a
   * file imported everywhere makes the server re-check big importers, which must not hold
   * up the edit. Files not answered in time are listed as unchecked.
   */
  otherFilesMs?: number;
  /** @deprecated since 0.2: use `timeoutMs`. */
  timeout_ms?: number;
  /** @deprecated since 0.2: use `otherFiles`. */
  other_files?: number;
  /** @deprecated since 0.2: use `otherFilesMs`. */
  other_files_ms?: number;
  /** A server not up yet: "wait" (default), start it in the "background", or "skip" (cold-start.ts). */
  coldStart?: ColdStart;
  /** Where servers run; default one registry per process, shared by every toolkit. */
  registry?: ServerRegistry;
}

/** How one validation pass over a batch went, as a whole. */
export interface ValidationPass {
  /** Files sent to a language server. */
  files: number;
  ms: number;
  budget_ms: number;
  /** The budget ran out before every file was answered (those say "validation timed out"). */
  timed_out: boolean;
  unanswered: number;
}

export interface BatchValidation {
  /** One per input, in order; undefined where nothing applies. */
  outcomes: (ValidationOutcome | undefined)[];
  /** Absent when no file went to a server. */
  pass?: ValidationPass;
}

export interface ServerHealth extends ServerState {
  language: LanguageId;
  label: string;
  server: string;
  installed: boolean;
  install_hint: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const TIMEOUT = Symbol("timeout");

/** Resolves with TIMEOUT at the deadline; the ref'd timer keeps Node alive while someone waits. */
function before<T>(work: Promise<T>, deadline: number): Promise<T | typeof TIMEOUT> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(TIMEOUT), Math.max(0, deadline - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export class Validator {
  private readonly registry: ServerRegistry;
  private readonly timeoutMs: number;
  /** Importers whose diagnostics took longer than the budget, until when they are skipped. */
  private readonly slow = new Map<string, number>();

  constructor(
    readonly root: string,
    /** Validate calls that do not say (`validate` omitted). */
    readonly enabled: boolean,
    private readonly options: LspOptions = {},
  ) {
    this.registry = options.registry ?? sharedRegistry();
    this.timeoutMs = options.timeoutMs ?? options.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    this.coldStart = options.coldStart ?? "wait";
  }

  private readonly coldStart: ColdStart;

  /** The server for a language, with a replacement command; false when turned off. */
  private serverFor(language: Language): { spec: ServerSpec; launch?: Launch } | false {
    const override = this.options.servers?.[language.id];
    if (override === false) return false;
    const name =
      language.id === "typescript"
        ? (this.options.typescript ?? defaultTypescriptServer())
        : language.servers[0]!;
    const spec = SERVERS[name]!;
    return override
      ? { spec, launch: { command: override.command, args: override.args ?? [] } }
      : { spec };
  }

  /** The first folder from the file up to the root that holds one of the language's project files. */
  private projectOf(path: string, language: Language): string | undefined {
    let dir = dirname(path);
    for (;;) {
      if (language.markers.some((m) => markerExists(join(dir, m)))) return dir;
      if (dir === this.root || !isInside(this.root, dir)) return undefined;
      const up = dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  }

  /**
   * What validating `input` needs: its language and server, or the outcome
   * without a server (`validate: false`, no language, no project, turned off).
   */
  private prepare(input: ValidationInput): Prepared | { outcome: ValidationOutcome | undefined } {
    if (input.requested === false || (!this.enabled && input.requested !== true)) {
      return { outcome: undefined };
    }
    const found = languageOf(input.path);
    if (!found) {
      if (input.requested !== true) return { outcome: undefined };
      return {
        outcome: quiet(
          skipped(
            `No language server is known for ${input.display}.`,
            "Check the file by running the project's own checker or tests.",
          ),
        ),
      };
    }
    const { language, languageId } = found;
    const server = this.serverFor(language);
    if (server === false) {
      if (input.requested !== true) return { outcome: undefined };
      return {
        outcome: loud(
          skipped(
            `Validation of ${language.label} is turned off in the lsp options.`,
            `Run ${language.checkCommand} instead.`,
          ),
        ),
      };
    }
    if (input.requested !== true && !this.projectOf(input.path, language)) {
      const markers = language.markers.slice(0, 3).join(", ");
      return {
        outcome: quiet(
          skipped(
            `No ${markers} (or similar) between ${input.display} and the root, so no ${language.label} server was started.`,
            `Pass "validate": true to validate ${input.display} anyway.`,
          ),
        ),
      };
    }
    return { language, languageId, ...server };
  }

  /**
   * Validates one change, or undefined when nothing applies: `validate: false`,
   * a file no language claims, or validation off by default and not asked for.
   */
  async validate(input: ValidationInput): Promise<ValidationOutcome | undefined> {
    const prepared = this.prepare(input);
    if ("outcome" in prepared) return prepared.outcome;
    const { language, languageId } = prepared;
    const server = prepared;
    const cold = notWaiting(this.coldStart, this.registry, this.root, prepared);
    if (cold) return cold;
    const started = Date.now();
    const deadline = started + this.timeoutMs;
    const { spec, launch } = server;
    let client: LspClient | typeof TIMEOUT;
    try {
      client = await before(this.registry.acquire(this.root, spec, launch), deadline);
    } catch (error) {
      return loud(unavailable(error, spec, language));
    }
    if (client === TIMEOUT) {
      return loud(
        uncertain(
          `${spec.name} is still starting (more than ${this.timeoutMs} ms so far).`,
          `Call lsp_health to see when ${language.label} is ready; the next edit is validated once it is. Or run ${language.checkCommand}.`,
          { server: spec.name },
        ),
      );
    }
    const ready = client;
    const run = ready.exclusive(() =>
      observe(this.scope(ready, deadline), input, { language, languageId }, this.slow),
    );
    try {
      const outcome = await before(run, deadline + 50);
      if (outcome === TIMEOUT) throw new LspTimeout("validation");
      const validation = judge({
        ...outcome,
        server: spec.name,
        label: language.label,
        checkCommand: language.checkCommand,
        latencyMs: Date.now() - started,
      });
      this.registry.recordLatency(this.root, spec, Date.now() - started);
      return loud(validation);
    } catch (error) {
      return loud(failure(error, spec, language, Date.now() - started));
    }
  }

  /**
   * Validates every change of a batch in one pass with one total budget: per
   * server, the old texts of a chunk of files are sent and their diagnostics
   * pulled together, then the new ones, and importers are found in one scan
   * of the tree. A file the budget did not reach says "validation timed out".
   */
  async validateAll(
    inputs: readonly ValidationInput[],
    budgetMs = this.timeoutMs,
  ): Promise<BatchValidation> {
    const outcomes: (ValidationOutcome | undefined)[] = inputs.map(() => undefined);
    const groups = new Map<string, { prepared: Prepared; indexes: number[] }>();
    inputs.forEach((input, i) => {
      const prepared = this.prepare(input);
      if ("outcome" in prepared) {
        outcomes[i] = prepared.outcome;
        return;
      }
      const key = `${prepared.spec.name}\u0000${JSON.stringify(prepared.launch ?? null)}`;
      const group = groups.get(key) ?? { prepared, indexes: [] };
      group.indexes.push(i);
      groups.set(key, group);
    });
    if (groups.size === 0) return { outcomes };
    const started = Date.now();
    const deadline = started + budgetMs;
    let unanswered = 0;
    let files = 0;
    await Promise.all(
      [...groups.values()].map(async ({ prepared, indexes }) => {
        files += indexes.length;
        const { spec, launch, language } = prepared;
        const cold = notWaiting(this.coldStart, this.registry, this.root, prepared);
        if (cold) {
          for (const i of indexes) outcomes[i] = cold;
          return;
        }
        let client: LspClient | typeof TIMEOUT;
        try {
          client = await before(this.registry.acquire(this.root, spec, launch), deadline);
        } catch (error) {
          for (const i of indexes) outcomes[i] = loud(unavailable(error, spec, language));
          return;
        }
        const ready = client;
        const results = new Map<number, Observation | Error>();
        if (ready !== TIMEOUT) {
          const run = ready.exclusive(() =>
            observeAll(this.scope(ready, deadline), inputs, indexes, prepared, results),
          );
          await before(run, deadline + 50).catch((error: unknown) => {
            for (const i of indexes) if (!results.has(i)) results.set(i, asError(error));
          });
        }
        for (const i of indexes) {
          const result = results.get(i);
          if (result === undefined || result instanceof LspTimeout) {
            unanswered++;
            outcomes[i] = loud(timedOut(inputs[i]!, spec, language, budgetMs));
          } else if (result instanceof Error) {
            outcomes[i] = loud(failure(result, spec, language, Date.now() - started));
          } else {
            outcomes[i] = loud(judge(result));
          }
        }
        this.registry.recordLatency(this.root, spec, Date.now() - started);
      }),
    );
    const ms = Date.now() - started;
    return {
      outcomes,
      pass: { files, ms, budget_ms: budgetMs, timed_out: unanswered > 0, unanswered },
    };
  }

  /** The server, deadline and limits of one validation. */
  private scope(client: LspClient, deadline: number): ObserveScope {
    return {
      root: this.root,
      client,
      deadline,
      otherFiles: this.options.otherFiles ?? this.options.other_files ?? 5,
      otherFilesMs: this.options.otherFilesMs ?? this.options.other_files_ms ?? 300,
    };
  }

  private languageList(language?: string): Language[] {
    if (!language) return [...LANGUAGES];
    const found = languageById(language);
    if (!found) {
      const known = LANGUAGES.map((l) => l.id).join(", ");
      throw new Error(`unknown language "${language}"; the languages are ${known}`);
    }
    return [found];
  }

  /** Per language: which server, whether it is installed, and how it is doing. */
  health(language?: string): ServerHealth[] {
    return this.languageList(language).map((l) => {
      const server = this.serverFor(l);
      const spec = server === false ? SERVERS[l.servers[0]!]! : server.spec;
      const launch = server === false ? undefined : (server.launch ?? spec.resolve());
      const installed = launch !== undefined && runnable(launch.command);
      const state = this.registry.state(this.root, spec);
      return {
        language: l.id,
        label: l.label,
        server: spec.name,
        installed,
        install_hint: spec.installHint,
        ...state,
        ...(server === false
          ? { status: "unavailable" as const, error: "turned off in the lsp options" }
          : {}),
      };
    });
  }

  /** Starts (or with `restart`, stops and starts) the servers of the languages, waiting until the deadline. */
  async start(language: string | undefined, restart: boolean): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    const targets = this.languageList(language).flatMap((l) => {
      const server = this.serverFor(l);
      if (server === false) return [];
      if (!language && !restart && !this.projectOf(join(this.root, "x"), l)) return [];
      return [server];
    });
    await Promise.all(
      targets.map(async ({ spec, launch }) => {
        const work = restart
          ? this.registry.restart(this.root, spec, launch)
          : this.registry.acquire(this.root, spec, launch);
        await before(work, deadline).catch(() => undefined);
      }),
    );
  }
}
