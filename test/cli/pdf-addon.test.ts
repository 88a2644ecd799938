/**
 * The PDF add-on through the built command, in a layout like a production
 * install: a copy of splice whose node_modules holds only its dependencies
 * (linked from this clone's), so the pdf.js and canvas this clone has as
 * devDependencies are not beside it. The add-on folder holds nothing, then
 * a copy of pdf.js alone (copied, not linked: pdf.js looks for the canvas
 * beside its real path, and this clone's has one).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scannedPdf } from "../helpers/scanned-pdf.js";
import { REPO, stagedInstall } from "../helpers/staged-install.js";

const pinned = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).peerDependencies;

let base: string;
let addons: string;
let project: string;

function splice(args: string[]) {
  const r = spawnSync(
    process.execPath,
    [join(base, "pkg/bin/splice"), ...args, "--root", project],
    {
      env: { ...process.env, SPLICE_ADDONS: addons },
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "splice-pdf-addon-"));
  stagedInstall(base);
  addons = join(base, "addons");
  project = join(base, "project");
  mkdirSync(project);
  writeFileSync(join(project, "scan.pdf"), await scannedPdf(["#3366cc"]));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the PDF add-on", () => {
  it("without pdf.js, a PDF read is a needs_addon error naming the install command", () => {
    const r = splice(["read", "scan.pdf", "--json"]);
    const result = JSON.parse(r.stdout).results[0];
    expect(result.error.code).toBe("needs_addon");
    expect(result.error.message).toBe(
      `scan.pdf: reading a PDF needs pdf.js, an add-on splice does not install by default; install it with: npm install --prefix '${addons}' pdfjs-dist@${pinned["pdfjs-dist"]} @napi-rs/canvas@${pinned["@napi-rs/canvas"]}.`,
    );
  });

  it("with pdf.js but no canvas, a text-less page reads as text and says how to add the canvas", () => {
    const pdfjs = join(addons, "node_modules/pdfjs-dist");
    for (const part of ["package.json", "legacy/build"])
      cpSync(join(REPO, "node_modules/pdfjs-dist", part), join(pdfjs, part), { recursive: true });
    // stdout parses as JSON: the warnings pdf.js prints as it loads without a canvas stay off it.
    const r = splice(["read", "scan.pdf", "--json"]);
    const result = JSON.parse(r.stdout).results[0];
    expect(result.error).toBeUndefined();
    expect(result.content.split("\n").slice(1)).toEqual(["[page 1 of 1]", ""]);
    expect(result.images).toBeUndefined();
    expect(result.warnings).toEqual([
      `no text layer: page 1 holds no text (a scanned or image-only PDF); to see it as an image, add the canvas pdf.js draws pages on: npm install --prefix '${addons}' @napi-rs/canvas@${pinned["@napi-rs/canvas"]}`,
    ]);
  });
});
