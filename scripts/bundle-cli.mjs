/**
 * Bundles the built CLI (dist/cli/start.js, and the engine process's entry) into dist/cli-bundle/: one file
 * for the start, plus chunks that load only when a command needs them (serve,
 * agent, the document parsers). Unbundled, a `splice` command spent about a
 * third of its time resolving and loading some 400 separate modules.
 *
 * The chunks sit beside main.js, one folder below dist/, like every built
 * module: so `../tools/<name>.md` and `../../package.json`, resolved from
 * import.meta.url, find the same files from either layout.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

/**
 * Bundled: what every command loads at start, all plain JavaScript. Every
 * other dependency stays in node_modules, loaded as published: the native
 * addons (ast-grep, ripgrep's binary), packages that read files beside their
 * code (editorconfig's wasm) or require their own files dynamically
 * (jsonc-parser's UMD build), and the SDKs and parsers only some calls load.
 */
/** Where the build writes (scripts/build.mjs builds beside dist/, then swaps). */
const DIST = process.env.SPLICE_DIST ?? "dist";
const BUNDLED = new Set(["zod", "vscode-jsonrpc", "picomatch", "ignore", "diff"]);
const { dependencies, peerDependencies = {} } = JSON.parse(readFileSync("package.json", "utf8"));
// Optional peers are add-ons (grammars, language servers, SDKs): found at run time, never bundled.
const external = [...Object.keys(dependencies), ...Object.keys(peerDependencies)]
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// Chunk names carry a content hash: clear the last build's, or they pile up.
rmSync(`${DIST}/cli-bundle`, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [`${DIST}/cli/start.js`, `${DIST}/cli/engine-process.js`],
  outdir: `${DIST}/cli-bundle`,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  // CommonJS dependencies call require(), which ESM output does not have unless given one.
  banner: {
    js: "import { createRequire as __spliceRequire } from 'node:module'; const require = __spliceRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: "warning",
});
// Which packages each chunk holds: the entry test checks what a command loads with it.
// Named as they will be once the build is swapped in (scripts/build.mjs).
const named = JSON.stringify(metafile).replaceAll(`"${DIST}/`, '"dist/');
writeFileSync(`${DIST}/cli-bundle/meta.json`, named);
