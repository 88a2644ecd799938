/**
 * The map stays true: docs/architecture.md lists every folder's modules
 * exactly as they are on disk, and no module the map or internals.md names
 * is gone. A module moved or split without its docs fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "..");
const SRC = join(REPO, "src");
const doc = (name: string) => readFileSync(join(REPO, "docs", name), "utf8");

/** Every file of the folders a page may name, relative to the repository, with `/` separators. */
const files = ["src", "review-ui", "test", "bench", "scripts"].flatMap((dir) =>
  readdirSync(join(REPO, dir), { recursive: true, encoding: "utf8" }).map((f) =>
    `${dir}/${f}`.split("\\").join("/"),
  ),
);

/** A folder's own entries as the map names them: its modules, and its sub-folders with a `/`. */
function entries(folder: string): string[] {
  return readdirSync(join(SRC, folder), { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith(".ts"))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}

/** The folders the map must have a row for: all of them but a tool's own (tools/ lists those). */
function folders(): string[] {
  const dirs = readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(SRC.length + 1)
        .split("\\")
        .join("/"),
    );
  return ["", ...dirs.filter((d) => !/^tools\/[^/]+/.test(d))].sort();
}

/** The map's rows (`| folder | what it is for | modules |`): folder ("" for src/) -> the names listed. */
function rows(): Map<string, string[]> {
  const text = doc("architecture.md");
  const block = text.slice(
    text.indexOf("<!-- modules:start -->"),
    text.indexOf("<!-- modules:end -->"),
  );
  const out = new Map<string, string[]>();
  for (const line of block.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 5 || !cells[1]!.startsWith("`")) continue;
    const folder = cells[1]!
      .replace(/`/g, "")
      .replace(/^src\/?/, "")
      .replace(/\/$/, "");
    out.set(folder, [...cells[3]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort());
  }
  return out;
}

describe("docs/architecture.md", () => {
  const map = rows();

  it("has a row for every folder of src/ and none for a folder that is gone", () => {
    expect([...map.keys()].sort()).toEqual(folders());
  });

  it("lists each folder's modules and sub-folders exactly", () => {
    const wrong = [...map].filter(([folder, names]) => {
      const real = entries(folder);
      return real.join(" ") !== names.join(" ");
    });
    expect(wrong.map(([folder, names]) => `${folder || "src"}: ${names.join(" ")}`)).toEqual([]);
  });

  it("names, with internals.md, only modules that exist", () => {
    const named = new Set<string>();
    for (const page of ["architecture.md", "internals.md"]) {
      for (const m of doc(page).matchAll(/`([\w./-]+\.ts)`/g)) named.add(m[1]!);
    }
    const gone = [...named].filter(
      (name) => !files.some((f) => f === name || f.endsWith(`/${name}`)),
    );
    expect(gone.sort()).toEqual([]);
  });
});
