/**
 * The files that import an edited file, so a changed exported signature that
 * breaks them can be reported. A bounded text scan (import specifiers that
 * resolve to the file), cached briefly: its answer only decides which other
 * files the server is asked about, so a miss costs coverage, never a wrong
 * verdict.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve, sep } from "node:path";
import type { Language } from "./servers.js";

const SKIP_DIRS = new Set([
  "node_modules",
  "dist",
  "build",
  "out",
  "coverage",
  "target",
  "venv",
  "__pycache__",
  "site-packages",
]);
const MAX_FILES = 3000;
const MAX_BYTES = 256 * 1024;
const CACHE_MS = 30_000;

const cache = new Map<string, { at: number; files: string[] }>();
const importers = new Map<string, { at: number; files: string[] }>();

/** Source files of a language under the root, breadth first, skipping dependencies and build output. */
function sourceFiles(root: string, language: Language): string[] {
  const key = `${root}\u0000${language.id}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.files;
  const files: string[] = [];
  const queue = [root];
  while (queue.length > 0 && files.length < MAX_FILES) {
    const dir = queue.shift()!;
    let names: import("node:fs").Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) {
      if (d.name.startsWith(".")) continue;
      const path = join(dir, d.name);
      if (d.isDirectory()) {
        if (!SKIP_DIRS.has(d.name)) queue.push(path);
      } else if (d.isFile() && language.extensions[extname(d.name).toLowerCase()]) {
        files.push(path);
        if (files.length >= MAX_FILES) break;
      }
    }
  }
  cache.set(key, { at: Date.now(), files });
  return files;
}

const stripExt = (path: string) => path.slice(0, path.length - extname(path).length);

const JS_SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bexport\s*\*\s*from\s*)["']([^"']+)["']/g;

/** Whether a JS/TS file's relative imports name `target` (any extension, or its folder for index files). */
function importsJs(importer: string, text: string, target: string): boolean {
  const wanted = stripExt(target);
  const folder = basename(wanted) === "index" ? dirname(wanted) : undefined;
  for (const m of text.matchAll(JS_SPECIFIER)) {
    const spec = m[1]!;
    if (!spec.startsWith(".")) continue;
    const resolved = resolve(dirname(importer), spec);
    if (resolved === folder || stripExt(resolved) === wanted || resolved === wanted) return true;
  }
  return false;
}

/** Whether a Python file imports the module `target` is (by its dotted name or, relatively, its stem). */
function importsPython(text: string, root: string, target: string): boolean {
  const rel = stripExt(relative(root, target)).split(sep);
  if (rel.at(-1) === "__init__") rel.pop();
  const stem = rel.at(-1);
  if (!stem) return false;
  const dotted = rel.join(".");
  for (const line of text.split("\n")) {
    const m = /^\s*(?:from\s+(\.*[\w.]*)\s+import\s+(.+)|import\s+(.+))$/.exec(line);
    if (!m) continue;
    const names = (m[2] ?? m[3] ?? "").split(/[\s,()]+/);
    const from = m[1] ?? "";
    const modules = from ? [from, ...names.map((n) => `${from}.${n}`)] : names;
    for (const mod of modules) {
      const clean = mod.replace(/^\.+/, "");
      if (!clean) continue;
      if (clean === dotted || dotted.endsWith(`.${clean}`) || clean.split(".").at(-1) === stem) {
        return true;
      }
    }
  }
  return false;
}

/** Each source file under the root and its text, but those `skip` names (unreadable and oversized ones left out). */
function* sourceTexts(
  root: string,
  language: Language,
  skip: (path: string) => boolean,
): Generator<{ path: string; text: string }> {
  for (const path of sourceFiles(root, language)) {
    if (skip(path)) continue;
    let text: string;
    try {
      if (statSync(path).size > MAX_BYTES) continue;
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    yield { path, text };
  }
}

/** Up to `limit` files under the root that import `file` directly. */
export function findImporters(
  root: string,
  file: string,
  language: Language,
  limit: number,
): string[] {
  if (limit <= 0) return [];
  const key = `${file}\u0000${limit}`;
  const hit = importers.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.files;
  const found: string[] = [];
  for (const { path, text } of sourceTexts(root, language, (path) => path === file)) {
    const hit =
      language.id === "python" ? importsPython(text, root, file) : importsJs(path, text, file);
    if (hit) found.push(path);
    if (found.length >= limit) break;
  }
  importers.set(key, { at: Date.now(), files: found });
  return found;
}

/** Forgets cached file lists (a test created files, or a long session moved on). */
export function clearImporterCache(): void {
  cache.clear();
  importers.clear();
}

/**
 * The importers of a whole batch in one scan: every source file is read once
 * (not once per edited file, which made a 120-file change read the tree 120
 * times). Files of the batch are not their own importers here: the batch
 * validates them anyway. Up to `limit` importers in all, by the file they import.
 */
export function findImportersOfAll(
  root: string,
  files: readonly string[],
  language: Language,
  limit: number,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (limit <= 0 || files.length === 0) return out;
  const batch = new Set(files);
  // For JS/TS: a resolved specifier without its extension (or an index file's folder) -> the file.
  const wanted = new Map<string, string>();
  for (const file of files) {
    const stem = stripExt(file);
    wanted.set(stem, file);
    wanted.set(file, file);
    if (basename(stem) === "index") wanted.set(dirname(stem), file);
  }
  let found = 0;
  for (const { path, text } of sourceTexts(root, language, (path) => batch.has(path))) {
    let target: string | undefined;
    if (language.id === "python") {
      target = files.find((file) => importsPython(text, root, file));
    } else {
      for (const m of text.matchAll(JS_SPECIFIER)) {
        const spec = m[1]!;
        if (!spec.startsWith(".")) continue;
        const resolved = resolve(dirname(path), spec);
        target = wanted.get(resolved) ?? wanted.get(stripExt(resolved));
        if (target) break;
      }
    }
    if (!target) continue;
    out.set(target, [...(out.get(target) ?? []), path]);
    if (++found >= limit) break;
  }
  return out;
}
