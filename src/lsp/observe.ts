/**
 * What a language server says about a change: the diagnostics of the old
 * text, then of the new one (sent with didChange, so nothing needs to be on
 * disk), for the file and for the files that import it, those within their
 * own small budget.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { LspClient } from "./client.js";
import { findImporters, findImportersOfAll } from "./dependents.js";
import { lineHunks } from "./match.js";
import { LspTimeout } from "./protocol.js";
import { type Language, type Launch, languageOf, type ServerSpec } from "./servers.js";
import { type Observation, type Observed, toDiagnostic } from "./verdict.js";

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

/** One validation's server, deadline and limits. */
export interface ObserveScope {
  root: string;
  client: LspClient;
  deadline: number;
  /** How many importers are checked too. */
  otherFiles: number;
  /** How long each importer may take, before and after the change. */
  otherFilesMs: number;
}

/** A change's language and the server that validates it. */
export interface Prepared {
  language: Language;
  languageId: string;
  spec: ServerSpec;
  launch?: Launch;
}

/** Documents a batch keeps open at once (the client keeps 32; importers need room too). */
const BATCH_CHUNK = 16;
const SLOW_IMPORTER_MS = 60_000;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

const settled = <T>(work: Promise<T>) =>
  work.then(
    (value) => value,
    (error: unknown) => asError(error),
  );

function displayOf(scope: ObserveScope, file: string): string {
  return relative(scope.root, file) || file;
}

/** A file's diagnostics for the text last synced, by `until`. */
async function look(
  scope: ObserveScope,
  file: string,
  since = 0,
  until = scope.deadline,
): Promise<Observed> {
  const report = await scope.client.diagnostics(file, until, since);
  const shown = displayOf(scope, file);
  return { items: report.items.map((d) => toDiagnostic(shown, d)), complete: report.complete };
}

/** An importer's diagnostics within the importers' budget. */
function lookWithin(scope: ObserveScope, file: string, since = 0): Promise<Observed> {
  return look(scope, file, since, Math.min(scope.deadline, Date.now() + scope.otherFilesMs));
}

/** Opens each importer as it is on disk; those that cannot be read are left out. */
function syncImporters(client: LspClient, files: readonly string[], languageId: string): string[] {
  return files.flatMap((file) => {
    try {
      const text = readFileSync(file, "utf8");
      client.sync(file, languageOf(file)?.languageId ?? languageId, text);
      return [file];
    } catch {
      return [];
    }
  });
}

/** A file's own diagnostics, named as results show it. */
const own = (input: ValidationInput, o: Observed): Observed => ({
  ...o,
  items: o.items.map((d) => ({ ...d, file: input.display })),
});

/**
 * Diagnostics of the old text, then of the new, for the file and its
 * importers. An importer that does not answer within its budget is not asked
 * about again for a while (`slow`): re-checking it is what takes the server
 * so long, and it would slow every following validation.
 */
export async function observe(
  scope: ObserveScope,
  input: ValidationInput,
  { language, languageId }: Pick<Prepared, "language" | "languageId">,
  slow: Map<string, number>,
) {
  const { client } = scope;
  const { path } = input;
  const found = findImporters(scope.root, path, language, scope.otherFiles);
  const started = Date.now();
  const skipped = found.filter((file) => (slow.get(file) ?? 0) > started);
  const importers = syncImporters(
    client,
    found.filter((file) => !skipped.includes(file)),
    languageId,
  );
  const within = async (file: string, since = 0) => {
    try {
      return await lookWithin(scope, file, since);
    } catch (error) {
      if (!(error instanceof LspTimeout)) throw error;
      slow.set(file, Date.now() + SLOW_IMPORTER_MS);
      return undefined;
    }
  };
  let old: Observed | undefined;
  if (input.before) {
    client.sync(path, languageId, input.before.text);
    old = await look(scope, path);
  }
  const othersBefore = await Promise.all(importers.map((f) => within(f)));
  const change = client.sync(path, languageId, input.after.text);
  const now = await look(scope, path);
  const strategy = client.strategy;
  const compared = importers.filter((_, i) => othersBefore[i]?.complete);
  const othersAfter = await Promise.all(compared.map((f) => within(f, change)));
  const busy = client.busy;
  if (input.inMemory) {
    if (input.before) client.sync(path, languageId, input.before.text);
    else client.close(path);
  }
  return {
    strategy,
    before: old && own(input, old),
    after: own(input, now),
    hunks: lineHunks(input.before?.lines ?? [], input.after.lines),
    // A push server re-sends another file only when its diagnostics changed: a set that
    // did not come again in time is the last one it sent.
    others: compared.flatMap((file, i) => {
      const after = othersAfter[i];
      const before = othersBefore[importers.indexOf(file)]!;
      return after
        ? [{ file: displayOf(scope, file), before, after: { ...after, complete: true } }]
        : [];
    }),
    unchecked: [
      ...importers.filter(
        (file) => !compared.includes(file) || !othersAfter[compared.indexOf(file)],
      ),
      ...skipped,
    ].map((file) => displayOf(scope, file)),
    busy,
  };
}

/** observe for a batch: fills `results` (by input index) as answers come in, a chunk at a time. */
export async function observeAll(
  scope: ObserveScope,
  inputs: readonly ValidationInput[],
  indexes: number[],
  prepared: Prepared,
  results: Map<number, Observation | Error>,
): Promise<void> {
  const started = Date.now();
  const paths = indexes.map((i) => inputs[i]!.path);
  const importersOf = findImportersOfAll(scope.root, paths, prepared.language, scope.otherFiles);
  for (let at = 0; at < indexes.length; at += BATCH_CHUNK) {
    if (Date.now() >= scope.deadline) return;
    const chunk = indexes.slice(at, at + BATCH_CHUNK);
    await observeChunk(scope, inputs, chunk, importersOf, prepared, started, results);
  }
}

/** An importer of a batch's file: `of` is the input index of the file it imports. */
interface Importer {
  file: string;
  of: number;
}

/** What a chunk's importers said, before and after the change. */
interface OthersSeen {
  importers: Importer[];
  compared: Importer[];
  othersBefore: (Observed | undefined)[];
  othersAfter: (Observed | undefined)[];
}

/** One chunk of a batch: the old texts and their importers, then the new texts, then the importers again. */
async function observeChunk(
  scope: ObserveScope,
  inputs: readonly ValidationInput[],
  chunk: number[],
  importersOf: Map<string, string[]>,
  prepared: Prepared,
  started: number,
  results: Map<number, Observation | Error>,
): Promise<void> {
  const { client } = scope;
  const { languageId } = prepared;
  const within = (file: string, since = 0) => lookWithin(scope, file, since).catch(() => undefined);
  const importers: Importer[] = chunk.flatMap((i) =>
    syncImporters(client, importersOf.get(inputs[i]!.path) ?? [], languageId).map((file) => ({
      file,
      of: i,
    })),
  );
  for (const i of chunk) {
    const input = inputs[i]!;
    if (input.before) client.sync(input.path, languageId, input.before.text);
  }
  const olds = await Promise.all(
    chunk.map((i) => (inputs[i]!.before ? settled(look(scope, inputs[i]!.path)) : undefined)),
  );
  const othersBefore = await Promise.all(importers.map((o) => within(o.file)));
  let change = 0;
  for (const i of chunk) change = client.sync(inputs[i]!.path, languageId, inputs[i]!.after.text);
  const nows = await Promise.all(chunk.map((i) => settled(look(scope, inputs[i]!.path))));
  const compared = importers.filter((_, k) => othersBefore[k]?.complete);
  const othersAfter = await Promise.all(compared.map((o) => within(o.file, change)));
  const seen: OthersSeen = { importers, compared, othersBefore, othersAfter };
  const busy = client.busy;
  chunk.forEach((i, k) => {
    const old = olds[k];
    const now = nows[k]!;
    const failed = old instanceof Error ? old : now instanceof Error ? now : undefined;
    if (failed) {
      results.set(i, failed);
      return;
    }
    if (old instanceof Error || now instanceof Error) return;
    const input = inputs[i]!;
    results.set(i, {
      server: prepared.spec.name,
      label: prepared.language.label,
      checkCommand: prepared.language.checkCommand,
      strategy: client.strategy,
      before: old && own(input, old),
      after: own(input, now),
      hunks: lineHunks(input.before?.lines ?? [], input.after.lines),
      ...othersOf(scope, i, seen),
      busy,
      latencyMs: Date.now() - started,
    });
  });
}

/** The importers of one file of a chunk: those compared, and those left unchecked. */
function othersOf(
  scope: ObserveScope,
  i: number,
  { importers, compared, othersBefore, othersAfter }: OthersSeen,
): Pick<Observation, "others" | "unchecked"> {
  const mine = importers.filter((o) => o.of === i);
  return {
    others: mine.flatMap((o) => {
      const c = compared.indexOf(o);
      const after = c === -1 ? undefined : othersAfter[c];
      const before = othersBefore[importers.indexOf(o)];
      return after && before
        ? [{ file: displayOf(scope, o.file), before, after: { ...after, complete: true } }]
        : [];
    }),
    unchecked: mine
      .filter((o) => {
        const c = compared.indexOf(o);
        return c === -1 || !othersAfter[c];
      })
      .map((o) => displayOf(scope, o.file)),
  };
}
