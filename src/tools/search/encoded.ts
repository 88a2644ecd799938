/**
 * A search of files in their own encodings. rg reads every file as UTF-8
 * (UTF-16 after a byte order mark); files the project declares in a legacy
 * encoding are searched again, by folder and name, with `--encoding`; for a
 * literal pattern that is not ASCII, one more run looks for its bytes in each
 * legacy encoding, to find the files nothing declares. Then every file any
 * run reported is read once through the confined workspace and its encoding
 * found as `read` finds it: its lines are taken from the run that read it in
 * that encoding (a file only the UTF-8 run saw is searched again in its
 * own), confirmed against those bytes, and shown as `read` shows them.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { decodeFile } from "../../change/load.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import type { Document } from "../../text/document.js";
import { byteForms, type Encoding, utf16Bom, whatwgLabel } from "../../text/encoding.js";
import { mapLimit } from "../../util/map-limit.js";
import type { ToolContext } from "../define.js";
import { type Collected, clipLine, type FileHits } from "./collect.js";
import { type ConfinedRead, confirmHits, sameLines } from "./confirm.js";
import { declaredScopes, type EncodedScope } from "./declared.js";
import { SEARCH_LIMITS } from "./limits.js";

/** One rg run of the search. */
export interface RunSpec {
  /** rg flags before the search's own. */
  extra?: string[];
  most: number;
  /** Root-relative files or folders to search instead of the searched path ("" for the root). */
  targets?: string[];
  /** A regular expression to search for instead of the pattern, without context lines. */
  regex?: string;
}
export type Runner = (spec: RunSpec) => Promise<Collected>;

export interface SearchPlan {
  context: ToolContext;
  where: GuardedPath;
  /** Whether `where` is a folder. */
  folder: boolean;
  pattern: string;
  regex: boolean;
  limit: number;
  /** The globs rg is told to skip (`!node_modules`, secrets). */
  skip: readonly string[];
  run: Runner;
  read: ConfinedRead;
}

/** A run and the encoding it read files in (undefined: rg's default). */
interface Pass {
  encoding: Encoding | undefined;
  found: Collected;
}

/** A reported file as the confined read finds it. */
interface Owned {
  bytes: Uint8Array | undefined;
  /** The legacy encoding `read` decodes it in; undefined for UTF-8 or bytes it cannot decode. */
  encoding: Encoding | undefined;
  doc?: Document;
  /** rg's default run reads it in that encoding too (UTF-8, or UTF-16 after a BOM). */
  plain: boolean;
}

/** Files a rerun names at a time: well inside one command line. */
const RERUN_FILES = 200;

const encodingFlag = (encoding: Encoding) => `--encoding=${whatwgLabel(encoding)}`;

/** The run for one declared encoding: its folders, its names as an rg type (applied after ignore files). */
function scopeRun(scope: EncodedScope, most: number): RunSpec {
  const extra = [encodingFlag(scope.encoding)];
  if (scope.names) {
    extra.push(...scope.names.map((name) => `--type-add=spliceencoding:${name}`));
    extra.push("--type=spliceencoding");
  }
  return { extra, most, targets: scope.targets };
}

/** The pattern's bytes in every legacy encoding, as one regex over bytes; undefined when there is nothing to look for. */
export function bytesRegex(pattern: string): string | undefined {
  if (isAscii(Buffer.from(pattern))) return undefined;
  const hex = (bytes: Uint8Array) => [...bytes].map((b) => `\\x${b.toString(16).padStart(2, "0")}`);
  const forms = byteForms(pattern).map((bytes) => hex(bytes).join(""));
  return forms.length > 0 ? `(?-u:${forms.join("|")})` : undefined;
}

/** The files whose bytes may hold a literal, non-ASCII pattern in some legacy encoding. */
async function byteCandidates(plan: SearchPlan): Promise<string[]> {
  const regex = plan.regex ? undefined : bytesRegex(plan.pattern);
  if (regex === undefined) return [];
  const most = SEARCH_LIMITS.maxLimit;
  const found = await plan.run({ extra: ["--max-count=1"], most, regex });
  return found.files.map((f) => f.path);
}

async function ownerOf(plan: SearchPlan, rel: string): Promise<Owned> {
  const bytes = await plan.read(rel);
  if (!bytes || isUtf8(bytes)) return { bytes, encoding: undefined, plain: true };
  let doc: Awaited<ReturnType<typeof decodeFile>>;
  try {
    doc = await decodeFile(plan.context, plan.context.guard.check(rel, "read"), bytes);
  } catch {
    return { bytes, encoding: undefined, plain: true };
  }
  if ("kind" in doc || !doc.encoding) return { bytes, encoding: undefined, plain: true };
  return { bytes, encoding: doc.encoding, doc, plain: utf16Bom(bytes) !== undefined };
}

/** The run whose reading of `owned` is the file's own, with its lines for the file, if it reported it. */
function pick(passes: readonly Pass[], rel: string, owned: Owned) {
  for (const pass of passes) {
    const reads = owned.encoding === pass.encoding || (pass.encoding === undefined && owned.plain);
    const file = reads ? pass.found.files.find((f) => f.path === rel) : undefined;
    if (file) return { pass, file };
  }
  return undefined;
}

/** The lines confirmed against the confined bytes and shown as read shows them; undefined when they differ. */
function confirmed(file: FileHits, encoding: Encoding | undefined, owned: Owned) {
  if (!owned.bytes || !sameLines(file, owned.bytes, encoding, owned.doc?.lines)) return undefined;
  for (const line of file.lines) {
    const own = owned.doc?.lines[line.line - 1];
    // rg decodes by the WHATWG tables, read by iconv-lite's: where they differ, read's text is shown.
    if (own !== undefined && own !== line.raw) line.text = clipLine(own, 0);
  }
  return file;
}

/** The files of legacy encodings that no run read in theirs, searched again, each in its own. */
async function rerun(plan: SearchPlan, pending: Map<Encoding, string[]>): Promise<Pass[]> {
  const runs = [...pending].flatMap(([encoding, paths]) => {
    const chunks: string[][] = [];
    for (let i = 0; i < paths.length; i += RERUN_FILES)
      chunks.push(paths.slice(i, i + RERUN_FILES));
    return chunks.map((targets) => ({ encoding, targets }));
  });
  return mapLimit(runs, 2, async ({ encoding, targets }) => {
    const found = await plan.run({ extra: [encodingFlag(encoding)], most: plan.limit, targets });
    return { encoding, found };
  });
}

/** Every file any pass reported, with the encoding its confined read is in. */
async function owners(plan: SearchPlan, passes: Pass[], more: string[]) {
  const paths = new Set([...passes.flatMap((p) => p.found.files.map((f) => f.path)), ...more]);
  const found = new Map<string, Owned>();
  // Side by side: on a remote root each read is a round trip (the transport caps how many at once).
  await Promise.all([...paths].map(async (rel) => found.set(rel, await ownerOf(plan, rel))));
  return found;
}

/** The shown files: each from the run that read it in its own encoding, confirmed. */
async function settle(plan: SearchPlan, passes: Pass[], owned: Map<string, Owned>) {
  const kept: FileHits[] = [];
  const pending = new Map<Encoding, string[]>();
  for (const [rel, file] of owned) {
    const picked = pick(passes, rel, file);
    if (picked) {
      const shown = confirmed(picked.file, picked.pass.encoding, file);
      if (shown) kept.push(shown);
    } else if (file.encoding && !file.plain) {
      pending.set(file.encoding, [...(pending.get(file.encoding) ?? []), rel]);
    }
  }
  for (const pass of await rerun(plan, pending)) {
    for (const file of pass.found.files) {
      const own = owned.get(file.path);
      const shown = own?.encoding === pass.encoding && own && confirmed(file, pass.encoding, own);
      if (shown) kept.push(shown);
    }
    passes.push(pass);
  }
  return kept;
}

/** At most `limit` matches, by path: a file past it is cut after its last match shown. */
function trimmed(files: FileHits[], limit: number): { files: FileHits[]; cut: boolean } {
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out: FileHits[] = [];
  let left = limit;
  for (const file of files) {
    const matches = file.lines.filter((l) => l.match);
    if (left <= 0) return { files: out, cut: true };
    if (matches.length <= left) {
      out.push(file);
      left -= matches.length;
      continue;
    }
    const last = matches[left - 1]!.line;
    const lines = file.lines.filter((l) => !l.match || l.line <= last);
    out.push({ ...file, lines, lastMatch: last, more: true });
    return { files: out, cut: true };
  }
  return { files: out, cut: false };
}

/** Runs the search: rg's default run, and on a local root the runs in declared and found encodings. */
export async function searchEncoded(plan: SearchPlan): Promise<Collected> {
  const { context, limit, run } = plan;
  if (context.workspace.shell) return plainSearch(plan);
  const declared = declaredScopes(context, plan.where, plan.folder, plan.skip).then((scopes) =>
    Promise.all(
      scopes.map(async (s) => ({ encoding: s.encoding, found: await run(scopeRun(s, limit)) })),
    ),
  );
  const [plain, encoded, candidates] = await Promise.all([
    run({ most: limit }),
    declared,
    byteCandidates(plan),
  ]);
  const passes: Pass[] = [{ encoding: undefined, found: plain }, ...encoded];
  const owned = await owners(plan, passes, candidates);
  const { files, cut } = trimmed(await settle(plan, passes, owned), limit);
  const binary = await binaries(plan, plain.binary);
  const found: Collected = {
    files,
    hits: files.flatMap((f) =>
      f.lines.filter((l) => l.match).map((l) => ({ path: f.path, line: l.line, text: l.text })),
    ),
    truncated: cut || passes.some((p) => p.found.truncated),
    binary,
    outcome: plain.outcome,
  };
  const named = files.length === 1 ? owned.get(files[0]!.path) : undefined;
  if (files[0]?.path === plan.where.rel && named?.encoding === undefined) {
    namedBinary(found, named?.bytes);
  }
  return found;
}

/** The reported binary files whose confined read has a NUL byte. */
async function binaries(plan: SearchPlan, paths: string[]): Promise<string[]> {
  const contents = await Promise.all(paths.map((rel) => plan.read(rel)));
  return paths.filter((_, i) => contents[i]?.includes(0));
}

/** A file named as the path and searched as given: rg shows its matches even past a NUL byte; search never does. */
function namedBinary(found: Collected, bytes: Uint8Array | undefined): void {
  if (!bytes?.includes(0)) return;
  found.binary.push(found.files[0]!.path);
  found.files.length = 0;
  found.hits.length = 0;
  found.truncated = false;
}

/** On a remote root: rg's (or grep's) default run only, confirmed as UTF-8. */
async function plainSearch(plan: SearchPlan): Promise<Collected> {
  const found = await plan.run({ most: plan.limit });
  await confirmHits(found, plan.read);
  if (found.files.length === 1 && found.files[0]!.path === plan.where.rel) {
    namedBinary(found, await plan.read(plan.where.rel));
  }
  return found;
}
