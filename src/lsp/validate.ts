/**
 * Edit validation: ask the file's language server for diagnostics of the old
 * and the new text (the new one sent with didChange, so nothing needs to be on
 * disk) and report what the edit introduced and resolved, in the file and in
 * the files that import it. Never throws and never waits past its deadline: a
 * missing server is `skipped`, a silent or crashing one `uncertain`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { freshMemo } from "../util/fresh-memo.js";
import { type LspClient, LspExited, LspTimeout } from "./client.js";
import { findImporters, findImportersOfAll } from "./dependents.js";
import { lineHunks } from "./match.js";
import {
  type ServerRegistry,
  type ServerState,
  ServerUnavailable,
  sharedRegistry,
} from "./registry.js";
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
import {
  type EditValidation,
  judge,
  type Observation,
  type Observed,
  skipped,
  toDiagnostic,
  uncertain,
  validationNotice,
} from "./verdict.js";

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
  /** Where servers run; default one registry per process, shared by every toolkit. */
  registry?: ServerRegistry;
}

export interface ValidationInput {
  /** The real absolute path. */
  path: string;
  /** The path as results show it. */
  display: string;
  /** The text before the edit; undefined when the edit creates the file. */
  before: { text: string; lines: string[] } | undefined;
  after: { text: string; lines: string[] };
  /** The call's `validate`: true forces, false skips, undefined follows the defaults. */
  requested: boolean | undefined;
  /** validate_only: the server gets the old text back afterwards. */
  inMemory: boolean;
}

export interface ValidationOutcome {
  validation: EditValidation;
  /** A line for the model when the validation needs its attention. */
  notice?: string;
}

/** A change's language and the server that validates it. */
interface Prepared {
  language: Language;
  languageId: string;
  spec: ServerSpec;
  launch?: Launch;
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

/** Documents a batch keeps open at once (the client keeps 32; importers need room too). */
const BATCH_CHUNK = 16;

export interface ServerHealth extends ServerState {
  language: LanguageId;
  label: string;
  server: string;
  installed: boolean;
  install_hint: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const SLOW_IMPORTER_MS = 60_000;
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
  }

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
      if (dir === this.root || relative(this.root, dir).startsWith("..")) return undefined;
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
    const run = ready.exclusive(() => this.observe(ready, input, language, languageId, deadline));
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
            this.observeAll(ready, inputs, indexes, prepared, deadline, results),
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

  /** observe for a batch: fills `results` (by input index) as answers come in. */
  private async observeAll(
    client: LspClient,
    inputs: readonly ValidationInput[],
    indexes: number[],
    prepared: Prepared,
    deadline: number,
    results: Map<number, Observation | Error>,
  ): Promise<void> {
    const { language, languageId, spec } = prepared;
    const started = Date.now();
    const limit = this.options.otherFiles ?? this.options.other_files ?? 5;
    const paths = indexes.map((i) => inputs[i]!.path);
    const importersOf = findImportersOfAll(this.root, paths, language, limit);
    const budget = this.options.otherFilesMs ?? this.options.other_files_ms ?? 300;
    const display = (file: string) => relative(this.root, file) || file;
    const look = async (file: string, since = 0, until = deadline): Promise<Observed> => {
      const report = await client.diagnostics(file, until, since);
      return {
        items: report.items.map((d) => toDiagnostic(display(file), d)),
        complete: report.complete,
      };
    };
    const within = (file: string, since = 0) =>
      look(file, since, Math.min(deadline, Date.now() + budget)).catch(() => undefined);
    const settled = <T>(work: Promise<T>) =>
      work.then(
        (value) => value,
        (error: unknown) => asError(error),
      );
    for (let at = 0; at < indexes.length; at += BATCH_CHUNK) {
      if (Date.now() >= deadline) return;
      const chunk = indexes.slice(at, at + BATCH_CHUNK);
      const importers = chunk.flatMap((i) =>
        (importersOf.get(inputs[i]!.path) ?? []).flatMap((file) => {
          try {
            client.sync(
              file,
              languageOf(file)?.languageId ?? languageId,
              readFileSync(file, "utf8"),
            );
            return [{ file, of: i }];
          } catch {
            return [];
          }
        }),
      );
      for (const i of chunk) {
        const input = inputs[i]!;
        if (input.before) client.sync(input.path, languageId, input.before.text);
      }
      const olds = await Promise.all(
        chunk.map((i) => (inputs[i]!.before ? settled(look(inputs[i]!.path)) : undefined)),
      );
      const othersBefore = await Promise.all(importers.map((o) => within(o.file)));
      let change = 0;
      for (const i of chunk)
        change = client.sync(inputs[i]!.path, languageId, inputs[i]!.after.text);
      const nows = await Promise.all(chunk.map((i) => settled(look(inputs[i]!.path))));
      const compared = importers.filter((_, k) => othersBefore[k]?.complete);
      const othersAfter = await Promise.all(compared.map((o) => within(o.file, change)));
      const busy = client.busy;
      chunk.forEach((i, k) => {
        const input = inputs[i]!;
        const old = olds[k];
        const now = nows[k]!;
        const failed = old instanceof Error ? old : now instanceof Error ? now : undefined;
        if (failed) {
          results.set(i, failed);
          return;
        }
        if (old instanceof Error || now instanceof Error) return;
        const own = (o: Observed) => ({
          ...o,
          items: o.items.map((d) => ({ ...d, file: input.display })),
        });
        const mine = importers.filter((o) => o.of === i);
        results.set(i, {
          server: spec.name,
          label: language.label,
          checkCommand: language.checkCommand,
          strategy: client.strategy,
          before: old && own(old),
          after: own(now),
          hunks: lineHunks(input.before?.lines ?? [], input.after.lines),
          others: mine.flatMap((o) => {
            const c = compared.indexOf(o);
            const after = c === -1 ? undefined : othersAfter[c];
            const before = othersBefore[importers.indexOf(o)];
            return after && before
              ? [{ file: display(o.file), before, after: { ...after, complete: true } }]
              : [];
          }),
          unchecked: mine
            .filter((o) => {
              const c = compared.indexOf(o);
              return c === -1 || !othersAfter[c];
            })
            .map((o) => display(o.file)),
          busy,
          latencyMs: Date.now() - started,
        });
      });
    }
  }

  /** Diagnostics of the old text, then of the new, for the file and its importers. */
  private async observe(
    client: LspClient,
    input: ValidationInput,
    language: Language,
    languageId: string,
    deadline: number,
  ) {
    const { path } = input;
    const limit = this.options.otherFiles ?? this.options.other_files ?? 5;
    const found = findImporters(this.root, path, language, limit);
    const started = Date.now();
    const skipped = found.filter((file) => (this.slow.get(file) ?? 0) > started);
    const importers = found
      .filter((file) => !skipped.includes(file))
      .flatMap((file) => {
        try {
          const text = readFileSync(file, "utf8");
          client.sync(file, languageOf(file)?.languageId ?? languageId, text);
          return [file];
        } catch {
          return [];
        }
      });
    const look = async (file: string, since = 0, until = deadline): Promise<Observed> => {
      const report = await client.diagnostics(file, until, since);
      const shown = relative(this.root, file) || file;
      return { items: report.items.map((d) => toDiagnostic(shown, d)), complete: report.complete };
    };
    const budget = this.options.otherFilesMs ?? this.options.other_files_ms ?? 300;
    /**
     * An importer's diagnostics within the budget; undefined when they did not come in
     * time, and then the importer is not asked about again for a while: re-checking it
     * is what takes the server so long, and it would slow every following validation.
     */
    const within = async (file: string, since = 0) => {
      try {
        return await look(file, since, Math.min(deadline, Date.now() + budget));
      } catch (error) {
        if (!(error instanceof LspTimeout)) throw error;
        this.slow.set(file, Date.now() + SLOW_IMPORTER_MS);
        return undefined;
      }
    };
    let old: Observed | undefined;
    if (input.before) {
      client.sync(path, languageId, input.before.text);
      old = await look(path);
    }
    const othersBefore = await Promise.all(importers.map((f) => within(f)));
    const change = client.sync(path, languageId, input.after.text);
    const now = await look(path);
    const strategy = client.strategy;
    const compared = importers.filter((_, i) => othersBefore[i]?.complete);
    const othersAfter = await Promise.all(compared.map((f) => within(f, change)));
    const busy = client.busy;
    if (input.inMemory) {
      if (input.before) client.sync(path, languageId, input.before.text);
      else client.close(path);
    }
    const display = (file: string) => relative(this.root, file) || file;
    return {
      strategy,
      before: old && { ...old, items: old.items.map((d) => ({ ...d, file: input.display })) },
      after: { ...now, items: now.items.map((d) => ({ ...d, file: input.display })) },
      hunks: lineHunks(input.before?.lines ?? [], input.after.lines),
      // A push server re-sends another file only when its diagnostics changed: a set that
      // did not come again in time is the last one it sent.
      others: compared.flatMap((file, i) => {
        const after = othersAfter[i];
        const before = othersBefore[importers.indexOf(file)]!;
        return after ? [{ file: display(file), before, after: { ...after, complete: true } }] : [];
      }),
      unchecked: [
        ...importers.filter(
          (file) => !compared.includes(file) || !othersAfter[compared.indexOf(file)],
        ),
        ...skipped,
      ].map(display),
      busy,
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

const quiet = (validation: EditValidation): ValidationOutcome => ({ validation });
const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** A file of a batch that the pass's budget did not reach. */
function timedOut(
  input: ValidationInput,
  spec: ServerSpec,
  language: Language,
  budgetMs: number,
): EditValidation {
  return uncertain(
    `validation timed out: ${spec.name} did not answer for ${input.display} within the ${budgetMs} ms budget of this change's validation pass.`,
    `The file was written; validate it with an edit that has "validate": true, or run ${language.checkCommand}.`,
    { server: spec.name },
  );
}
const loud = (validation: EditValidation): ValidationOutcome => {
  const notice = validationNotice(validation);
  return notice ? { validation, notice } : { validation };
};

function unavailable(error: unknown, spec: ServerSpec, language: Language): EditValidation {
  if (error instanceof ServerUnavailable) {
    const restart =
      error.reason === "missing" ? "" : ` Then call lsp_health with action "restart".`;
    return skipped(error.message, `${spec.installHint}${restart}`);
  }
  return failure(error, spec, language, 0);
}

function failure(error: unknown, spec: ServerSpec, language: Language, ms: number): EditValidation {
  const extra = { server: spec.name, latency_ms: Math.round(ms) };
  if (error instanceof LspTimeout) {
    return uncertain(
      `${spec.name} did not answer in time (timed out after ${Math.round(ms)} ms).`,
      `Call lsp_health, or lsp_health with action "restart" if it stays stuck; or run ${language.checkCommand}.`,
      extra,
    );
  }
  if (error instanceof LspExited) {
    return uncertain(
      `${spec.name} exited during validation (${error.message}).`,
      `It is started again on the next validation; call lsp_health to check it, or run ${language.checkCommand}.`,
      extra,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return uncertain(
    `${spec.name} failed to validate: ${message}.`,
    `Call lsp_health with action "restart", or run ${language.checkCommand}.`,
    extra,
  );
}
