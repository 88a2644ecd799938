/**
 * A library user who imports splice's root must not pay for the host SDKs.
 * A fresh Node process imports the entry with a module.register() resolve
 * hook that records every module the ESM loader resolves; the CommonJS
 * cache is read afterwards for anything loaded through require.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
/** Each check starts a fresh Node process; on a busy machine that takes seconds. */
const SLOW = 60_000;
const HOST_SDKS = [
  "@anthropic-ai/sdk",
  "ai",
  "@ai-sdk",
  "@modelcontextprotocol/sdk",
  "@google/genai",
];
/** Parsers only doc, md and tidy calls need: they load with the first such call. */
const CALL_TIME = [
  "yaml",
  "markdown-it",
  "editorconfig",
  "@decimalturn/toml-patch",
  "jsonc-parser",
];

const HOOKS = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, specifier + "\\t" + result.url + "\\n");
  return result;
}
`;

const REGISTER = `
import { register } from "node:module";
register("./hooks.mjs", import.meta.url, { data: { log: process.env.SPLICE_RESOLVE_LOG } });
`;

/** Every module specifier and file a fresh process loads to import `entry`. */
function modulesLoadedBy(entry: string, viaTsx: boolean): string[] {
  const dir = mkdtempSync(join(tmpdir(), "splice-entry-"));
  writeFileSync(join(dir, "hooks.mjs"), HOOKS);
  writeFileSync(join(dir, "register.mjs"), REGISTER);
  const log = join(dir, "resolved.log");
  writeFileSync(log, "");
  const script = `
    import { createRequire } from "node:module";
    await import(${JSON.stringify(join(ROOT, entry))});
    console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  const run = spawnSync(
    process.execPath,
    [
      ...(viaTsx ? ["--import", "tsx"] : []),
      "--import",
      join(dir, "register.mjs"),
      "--input-type=module",
      "-e",
      script,
    ],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, SPLICE_RESOLVE_LOG: log } },
  );
  expect(run.status, run.stderr).toBe(0);
  const required = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as string[];
  const resolved = readFileSync(log, "utf8").split("\n").filter(Boolean);
  return [...resolved.flatMap((line) => line.split("\t")), ...required];
}

/** Every module a `splice` command resolves while it runs (ESM imports; the SDKs are ESM). */
function modulesLoadedByCli(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), "splice-cli-"));
  writeFileSync(join(dir, "hooks.mjs"), HOOKS);
  writeFileSync(join(dir, "register.mjs"), REGISTER);
  writeFileSync(join(dir, "a.txt"), "hello\n");
  const log = join(dir, "resolved.log");
  writeFileSync(log, "");
  const run = spawnSync(
    process.execPath,
    ["--import", join(dir, "register.mjs"), join(ROOT, "bin/splice"), ...args],
    // What a command loads in a process of its own (the engine's thin client loads less still).
    {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, SPLICE_RESOLVE_LOG: log, SPLICE_ENGINE: "0" },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  const resolved = readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((l) => l.split("\t"));
  return [...resolved, ...resolved.flatMap(bundledInputs)];
}

let bundleMeta: { outputs: Record<string, { inputs: Record<string, unknown> }> } | undefined;

/**
 * The command runs from the bundle (dist/cli-bundle/), where packages live
 * inside chunks rather than as modules of their own: a loaded chunk stands
 * for every source file esbuild put in it (its metafile says which).
 */
function bundledInputs(url: string): string[] {
  const marker = "/dist/cli-bundle/";
  const at = url.indexOf(marker);
  if (!url.startsWith("file:") || at < 0) return [];
  bundleMeta ??= JSON.parse(readFileSync(join(ROOT, "dist/cli-bundle/meta.json"), "utf8"));
  const output = bundleMeta!.outputs[`dist/cli-bundle/${url.slice(at + marker.length)}`];
  return Object.keys(output?.inputs ?? {}).map((input) => join(ROOT, input));
}

function packagesIn(modules: string[], names = HOST_SDKS): string[] {
  const hits = modules.filter((m) =>
    names.some(
      (name) =>
        m === name ||
        m.startsWith(`${name}/`) ||
        m.includes(`/node_modules/${name}/`) ||
        m.includes(`\\node_modules\\${name}\\`),
    ),
  );
  return [...new Set(hits)];
}

describe("the package entry", () => {
  it(
    "does not load any host SDK from the source entry",
    () => {
      const modules = modulesLoadedBy("src/index.ts", true);
      expect(modules.some((m) => m.endsWith("/src/toolkit/toolkit.ts"))).toBe(true);
      expect(packagesIn(modules)).toEqual([]);
    },
    SLOW,
  );

  it.skipIf(!existsSync(join(ROOT, "dist/index.js")))(
    "does not load any host SDK from the built entry",
    () => {
      const modules = modulesLoadedBy("dist/index.js", false);
      expect(modules.some((m) => m.endsWith("/dist/toolkit/toolkit.js"))).toBe(true);
      expect(packagesIn(modules)).toEqual([]);
      // Nor the document parsers: every CLI start would pay for them.
      expect(packagesIn(modules, CALL_TIME)).toEqual([]);
    },
    SLOW,
  );

  it.skipIf(!existsSync(join(ROOT, "dist/cli-bundle/start.js")))(
    "does not load the MCP or model SDKs for a CLI command other than serve and agent",
    () => {
      const modules = modulesLoadedByCli(["read", "a.txt"]);
      expect(modules.some((m) => m.endsWith("/dist/cli/start.js"))).toBe(true); // in the bundle
      expect(packagesIn(modules)).toEqual([]);
      expect(packagesIn(modules, CALL_TIME)).toEqual([]);
      expect(packagesIn(modulesLoadedByCli(["serve", "--help"]))).toEqual([]); // help alone
      // The same check sees the SDK once serve runs (it exits when stdin ends).
      const serving = packagesIn(modulesLoadedByCli(["serve", "--root", "."]));
      expect(serving.some((m) => m.includes("/node_modules/@modelcontextprotocol/sdk/"))).toBe(
        true,
      );
    },
    SLOW,
  );

  it(
    "sees an SDK when one is loaded, so the check above is real",
    () => {
      expect(packagesIn(modulesLoadedBy("src/hosts/ai-sdk.ts", true))).toContain("ai");
      // The Anthropic adapter uses the SDK's types only.
      expect(packagesIn(modulesLoadedBy("src/hosts/anthropic.ts", true))).toEqual([]);
      const parsers = packagesIn(modulesLoadedBy("src/formats/open.ts", true), CALL_TIME);
      expect(parsers).toEqual(expect.arrayContaining(["yaml", "jsonc-parser"]));
    },
    SLOW,
  );
});
