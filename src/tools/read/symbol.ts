/**
 * The read tool's `symbol` target: a definition by name, in a file or across
 * a folder, in hashline form with large nested blocks elided (`line.ts` reads
 * the block around a line the same way).
 */

import { loadTextFile } from "../../change/load.js";
import { languageOf, missingEntry, unsupportedFile } from "../../code/languages.js";
import { nearNames } from "../../code/near.js";
import { splitSymbol } from "../../code/symbols.js";
import { containsAll, filesContaining, loadedIn, readRaw } from "../../codebase/code-bytes.js";
import { type CodeFiles, collectCodeFiles, reportProgress } from "../../codebase/files.js";
import { type Indexed, type SymbolIndex, symbolIndexFor } from "../../codebase/symbol-index.js";
import { fileStamp } from "../../codebase/symbol-index-store.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { count } from "../../util/format.js";
import { mapLimit } from "../../util/map-limit.js";
import type { ToolContext } from "../define.js";
import type { ReadResult } from "./result.js";
import { type Analyzed, analyze, notFound, present, SYMBOL_LIMITS } from "./symbol-view.js";

export { SYMBOL_LIMITS } from "./symbol-view.js";

/**
 * The name as a whole word, in text decoded as latin1: `parse` is not in
 * `parseInt`. (A `$` before it may belong to the name: PHP's `$name`.)
 */
function wholeWord(name: string): RegExp {
  const escaped = Buffer.from(name, "utf8")
    .toString("latin1")
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^\\w\\x80-\\xff])${escaped}(?![\\w\\x80-\\xff])`);
}

/** Names close to `name` in the files a folder search covered: definitions first, then any identifier. */
async function nearInFolder(
  context: ToolContext,
  name: string,
  files: readonly { file: GuardedPath }[],
  defined: ReadonlySet<string>,
): Promise<string[]> {
  const fromDefs = nearNames(name, defined);
  if (fromDefs.length > 0) return fromDefs;
  const words = new Set<string>();
  const lower = name.toLowerCase();
  let budget = SYMBOL_LIMITS.nearScanBytes;
  for (const { file } of files) {
    if (budget <= 0) break;
    const raw = await readRaw(context, { file });
    if ("skipped" in raw) continue;
    budget -= raw.bytes.length;
    const text = Buffer.from(raw.bytes).toString("latin1");
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const w = m[0];
      if (Math.abs(w.length - name.length) > 3 && !w.toLowerCase().includes(lower)) continue;
      words.add(w);
    }
  }
  return nearNames(name, words);
}

async function searchFolder(
  context: ToolContext,
  folder: GuardedPath,
  symbol: string,
  parts: string[],
): Promise<ReadResult[]> {
  const collected = await collectCodeFiles(context, [folder.input], {
    maxFiles: SYMBOL_LIMITS.maxFiles,
  });
  const index = symbolIndexFor(context);
  if (index) return searchIndexed(context, index, folder, symbol, parts, collected);
  const warnings = [...collected.warnings];
  const found: Analyzed[] = [];
  // Only names are kept of files without a match: their trees would hold memory.
  const defined = new Set<string>();
  let parsed = 0;
  let unparsed = 0;
  let done = 0;
  let definitions = 0;
  const total = collected.files.length;
  const words = parts.map(wholeWord);
  // ripgrep finds the files that mention the name; only those are read here.
  const hits = await filesContaining(context, collected.files, [parts.at(-1)!]);
  const scan = hits ? collected.files.filter((f) => hits.has(f.file.real)) : collected.files;
  if (hits) done = total - scan.length;
  await mapLimit(scan, 16, async (cf) => {
    // Once more definitions were found than a list shows, the rest is not needed.
    if (definitions > SYMBOL_LIMITS.maxListed) return;
    const raw = await readRaw(context, cf);
    reportProgress(context, { phase: "searching", done: ++done, total });
    if ("skipped" in raw || !containsAll(raw.bytes, parts)) return;
    const latin1 = Buffer.from(raw.bytes.buffer, raw.bytes.byteOffset, raw.bytes.length).toString(
      "latin1",
    );
    if (!words.every((w) => w.test(latin1))) return;
    if (parsed >= SYMBOL_LIMITS.maxParsed) {
      unparsed++;
      return;
    }
    parsed++;
    const loaded = await loadedIn(context, cf.file, raw.bytes);
    if ("kind" in loaded || definitions > SYMBOL_LIMITS.maxListed) return;
    const a = await analyze(cf.file, cf.language, loaded, parts, symbol);
    definitions += a.matches.length;
    if (a.matches.length > 0) found.push(a);
    else if (found.length === 0) for (const d of a.defs) defined.add(d.name);
  });
  if (definitions > SYMBOL_LIMITS.maxListed) {
    warnings.push(
      `The search stopped after ${count(definitions)} definitions of "${symbol}" (the list shows ${SYMBOL_LIMITS.maxListed}); more files may define it. Name it more exactly, or search a smaller folder.`,
    );
  }
  if (unparsed > 0) {
    warnings.push(
      `${count(unparsed)} more files mention "${parts.at(-1)}" but were not parsed (the cap is ${count(SYMBOL_LIMITS.maxParsed)}); search a smaller folder to cover them.`,
    );
  }
  return finish(context, folder, symbol, parts, collected, found, defined, warnings);
}

/** The found definitions shown, or the miss with the names nearest to it. */
async function finish(
  context: ToolContext,
  folder: GuardedPath,
  symbol: string,
  parts: string[],
  collected: CodeFiles,
  found: Analyzed[],
  defined: ReadonlySet<string>,
  warnings: string[],
): Promise<ReadResult[]> {
  const total = collected.files.length;
  if (found.length === 0) {
    const near = await nearInFolder(context, parts.at(-1)!, collected.files, defined);
    const files = `${count(total)} file${total === 1 ? "" : "s"}`;
    const where = `${files} under ${folder.display === "." ? "the root" : folder.display}`;
    const extra = warnings.length > 0 ? ` (${warnings.join(" ")})` : "";
    throw notFound(symbol, where, near, { path: folder.display, what: "folder" }, extra);
  }
  found.sort((x, y) => (x.file.display < y.file.display ? -1 : 1));
  return present(context, folder.display, symbol, found, warnings);
}

/** File lists the index was pruned against (a walk cache hands out the same list while unchanged). */
const pruned = new WeakSet<readonly unknown[]>();

/**
 * Files never indexed, scanned as without an index: only those mentioning the
 * name are parsed (and indexed), so a first lookup costs what a scan does;
 * `serve` indexes the rest.
 */
async function scanUnindexed(
  context: ToolContext,
  index: SymbolIndex,
  current: readonly Indexed[],
  name: string,
  parts: string[],
): Promise<Indexed[]> {
  const missing = current.filter((f) => "skipped" in f && f.skipped === "missing");
  const hits = await filesContaining(
    context,
    missing.map((f) => f.code),
    [name],
  );
  const scanned: Indexed[] = [];
  await mapLimit(missing, 16, async (item) => {
    if (hits && !hits.has(item.code.file.real)) return;
    const checkedAt = Date.now();
    const stat = fileStamp(item.code.file.real);
    const raw = await readRaw(context, item.code);
    if (!stat || "skipped" in raw || !containsAll(raw.bytes, parts)) return;
    const entry = await index.forBytes(context, item.code, raw.bytes, stat, checkedAt);
    if (entry) scanned.push({ code: item.code, entry, bytes: raw.bytes });
  });
  return scanned;
}

/** The files whose entries define the name, read and parsed afresh (up to the caps). */
async function parseCandidates(
  context: ToolContext,
  index: SymbolIndex,
  candidates: readonly Extract<Indexed, { entry: unknown }>[],
  parts: string[],
  symbol: string,
): Promise<{ found: Analyzed[]; definitions: number }> {
  const found: Analyzed[] = [];
  let definitions = 0;
  await mapLimit(candidates.slice(0, SYMBOL_LIMITS.maxParsed), 16, async (item) => {
    if (definitions > SYMBOL_LIMITS.maxListed) return;
    const checkedAt = Date.now();
    const stat = fileStamp(item.code.file.real);
    const raw = item.bytes ? { bytes: item.bytes } : await readRaw(context, item.code);
    if ("skipped" in raw) return;
    const loaded = await loadedIn(context, item.code.file, raw.bytes);
    if ("kind" in loaded) return;
    // Bytes that differ from the entry's (an edit the stamp missed) update it too.
    if (loaded.sha !== item.entry.sha && stat) {
      await index.forBytes(context, item.code, raw.bytes, stat, checkedAt);
    }
    const a = await analyze(item.code.file, item.code.language, loaded, parts, symbol);
    definitions += a.matches.length;
    if (a.matches.length > 0) found.push(a);
  });
  return { found, definitions };
}

/**
 * A folder search from the symbol index: each file's entry is brought up to
 * date (parsing only changed files), and the files whose entries define the
 * name are read and parsed afresh, so what is shown is the file as it is now.
 */
async function searchIndexed(
  context: ToolContext,
  index: SymbolIndex,
  folder: GuardedPath,
  symbol: string,
  parts: string[],
  collected: CodeFiles,
): Promise<ReadResult[]> {
  const warnings = [...collected.warnings];
  const total = collected.files.length;
  // Entries of files the walk no longer finds are dropped (a capped walk proves nothing);
  // a list the walk cache kept as it was has been pruned against already.
  if (!collected.capped && warnings.length === 0 && !pruned.has(collected.files)) {
    pruned.add(collected.files);
    const present = new Set(collected.files.map((f) => f.file.rel));
    for (const rel of [...index.paths(folder.rel)]) if (!present.has(rel)) index.put(rel, null);
  }
  let done = 0;
  const current = await index.lookup(context, collected.files, {
    onEach: () => reportProgress(context, { phase: "searching", done: ++done, total }),
    onlyKnown: true,
  });
  const name = parts.at(-1)!;
  const scanned = await scanUnindexed(context, index, current, name, parts);
  const whole = symbol.trim();
  const candidates: Extract<Indexed, { entry: unknown }>[] = [];
  for (const list of [current, scanned]) {
    for (const item of list) {
      if ("entry" in item && item.entry.defs.some((d) => d.name === name || d.name === whole)) {
        candidates.push(item);
      }
    }
  }
  const { found, definitions } = await parseCandidates(context, index, candidates, parts, symbol);
  index.flush();
  if (definitions > SYMBOL_LIMITS.maxListed) {
    warnings.push(
      `The search stopped after ${count(definitions)} definitions of "${symbol}" (the list shows ${SYMBOL_LIMITS.maxListed}); more files may define it. Name it more exactly, or search a smaller folder.`,
    );
  }
  if (candidates.length > SYMBOL_LIMITS.maxParsed) {
    warnings.push(
      `${count(candidates.length - SYMBOL_LIMITS.maxParsed)} more files define "${name}" but were not read (the cap is ${count(SYMBOL_LIMITS.maxParsed)}); search a smaller folder to cover them.`,
    );
  }
  // Near names (every defined name) are gathered only for a miss: a hit needs none.
  const defined = new Set<string>();
  if (found.length === 0) {
    for (const item of [current, scanned].flat())
      if ("entry" in item) for (const d of item.entry.defs) defined.add(d.name);
  }
  return finish(context, folder, symbol, parts, collected, found, defined, warnings);
}

/** Reads the definition(s) `symbol` names in a file, or in every supported file under a folder. */
export async function readSymbol(
  context: ToolContext,
  path: string,
  symbol: string,
  warnings: string[],
): Promise<ReadResult[]> {
  const parts = splitSymbol(symbol);
  if (parts.length === 0) {
    throw new ToolError(
      "invalid_input",
      `symbol ${JSON.stringify(symbol)} names nothing: give a name such as "parseConfig" or "Parser.parse".`,
    );
  }
  const file = context.guard.check(path, "read");
  const stat = await context.workspace.stat(file.real);
  if (stat?.kind === "directory") {
    const results = await searchFolder(context, file, symbol, parts);
    results[0]?.warnings.unshift(...warnings);
    return results;
  }
  const language = languageOf(file.display);
  const loaded = await loadTextFile(context, file);
  if (!language) {
    // A language splice knows whose grammar is missing or broken: the add-on is what is needed.
    const addon = missingEntry(file.display);
    throw new ToolError(
      addon ? "needs_addon" : "invalid_input",
      unsupportedFile(file.display),
      addon ? { language: addon.id } : {},
    );
  }
  const a = await analyze(file, language, loaded, parts, symbol);
  if (a.matches.length === 0) {
    const near = nearNames(
      parts.at(-1)!,
      a.defs.map((d) => d.name),
    );
    throw notFound(symbol, file.display, near, { path: file.display, what: "file" });
  }
  return present(context, file.display, symbol, [a], warnings);
}
