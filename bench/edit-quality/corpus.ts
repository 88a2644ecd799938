/**
 * The edit-quality corpus: real TypeScript and JavaScript files that nobody
 * in this project wrote, taken from packages in node_modules (versions pinned
 * by package-lock.json). A fixed list of package folders, each with a quota;
 * within a folder the files are sorted and sampled with the seeded Rng, so
 * every run (and every machine with the same lock file) gets the same files.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Rng } from "../lib.js";

export interface CorpusFile {
  /** Path under node_modules, e.g. "zod/src/v4/core/util.ts". */
  path: string;
  text: string;
}

export interface Source {
  /** A folder under node_modules. */
  dir: string;
  /** Which file names count (matched against the name alone). */
  name: RegExp;
  /** How many files to take from the folder. */
  count: number;
}

const TS = /\.(ts|mts|cts)$/;
const JS = /\.(js|mjs|cjs)$/;

/** 40 files from 13 folders of 9 packages. */
export const SOURCES: readonly Source[] = [
  { dir: "zod/src/v4/core", name: TS, count: 3 },
  { dir: "zod/src/v4/classic", name: TS, count: 2 },
  { dir: "zod/src/v4/locales", name: TS, count: 1 },
  { dir: "zod/src/v3", name: TS, count: 2 },
  { dir: "diff/libesm", name: JS, count: 4 },
  { dir: "ajv/lib", name: TS, count: 5 },
  { dir: "picomatch/lib", name: JS, count: 3 },
  { dir: "vitest/dist/chunks", name: JS, count: 4 },
  { dir: "@vitest/utils/dist", name: JS, count: 2 },
  { dir: "@modelcontextprotocol/sdk/dist/esm", name: JS, count: 7 },
  { dir: "@anthropic-ai/sdk/src", name: TS, count: 4 },
  { dir: "ignore", name: /^index\.js$/, count: 1 },
  { dir: "vite/dist/client", name: JS, count: 2 },
];

export const MIN_BYTES = 2_000;
export const MAX_BYTES = 200_000;
/** Average characters per line above which a file counts as minified. */
export const MINIFIED_LINE_LENGTH = 200;

const DECLARATION = /\.d\.(ts|mts|cts)$/;
const TEST = /(^|\/)(tests?|__tests__)\/|\.(test|spec)\.|\.min\./;

/** Why a file's text is unfit for the corpus, or undefined when it is fit. */
export function unfit(text: string): string | undefined {
  const bytes = Buffer.byteLength(text);
  if (bytes < MIN_BYTES || bytes > MAX_BYTES) return "size";
  if (text.includes("\r")) return "CR line endings";
  if (text.startsWith("\uFEFF")) return "byte order mark";
  if (text.includes("\u0000") || text.includes("\uFFFD")) return "binary or not UTF-8";
  const lines = text.split("\n").length;
  if (text.length / lines > MINIFIED_LINE_LENGTH) return "minified";
  return undefined;
}

function walk(root: string, rel: string, out: string[]): void {
  const entries = readdirSync(join(root, rel), { withFileTypes: true })
    .map((e) => ({ name: e.name, dir: e.isDirectory() }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.dir) {
      if (e.name !== "node_modules") walk(root, path, out);
    } else out.push(path);
  }
}

/** The files of one source that could be sampled, sorted by path. */
export function candidates(nodeModules: string, source: Source): string[] {
  const root = join(nodeModules, source.dir);
  const all: string[] = [];
  try {
    walk(root, "", all);
  } catch {
    return [];
  }
  return all.filter((rel) => {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    if (!source.name.test(name) || DECLARATION.test(name) || TEST.test(rel)) return false;
    const size = statSync(join(root, rel)).size;
    return size >= MIN_BYTES && size <= MAX_BYTES;
  });
}

export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface Corpus {
  /** The sample the cases are made from. */
  files: CorpusFile[];
  /** Every other fit file of the same folders, in sampled order (for the 1 MB timing file). */
  spare: CorpusFile[];
}

/** Samples SOURCES with a seeded Rng; unfit files (minified, CRLF, ...) are skipped. */
export function loadCorpus(nodeModules: string, seed: number): Corpus {
  const rng = new Rng(seed);
  const files: CorpusFile[] = [];
  const spare: CorpusFile[] = [];
  for (const source of SOURCES) {
    let taken = 0;
    for (const rel of shuffle(candidates(nodeModules, source), rng)) {
      const text = readFileSync(join(nodeModules, source.dir, rel), "utf8");
      if (unfit(text)) continue;
      const file = { path: `${source.dir}/${rel}`, text };
      if (taken < source.count) {
        files.push(file);
        taken++;
      } else spare.push(file);
    }
  }
  return { files, spare };
}
