/**
 * A grammar whose native library cannot load is left out with the reason,
 * never handed to ast-grep, whose loader panics in Rust and aborts the whole
 * process on one (`napi_lang.rs: OpenLib(...)`, exit 134). The end-to-end
 * cases run the built CLI and library (`npm run build`) against a real temp
 * install whose Swift grammar package points at a file that is no library.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { libraryProblem, registrationProblem } from "../../src/code/grammar-library.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const here = `${process.platform}-${process.arch}`;

function temp(): string {
  return mkdtempSync(join(tmpdir(), "splice-grammar-"));
}

/** The real Python grammar library installed with splice. */
const pythonLibrary = (): string =>
  (createRequire(join(REPO, "package.json"))("@ast-grep/lang-python") as { libraryPath: string })
    .libraryPath;

describe.runIf(process.platform === "linux")("a grammar library's header", () => {
  it("passes a real grammar library", () => {
    expect(libraryProblem(pythonLibrary())).toBeUndefined();
  });

  it("names what is wrong with a file that cannot load", () => {
    const dir = temp();
    const text = join(dir, "text.so");
    writeFileSync(text, "not a library\n");
    expect(libraryProblem(text)).toBe("it is not an ELF shared library");
    const empty = join(dir, "empty.so");
    writeFileSync(empty, "");
    expect(libraryProblem(empty)).toBe("it is empty");
    expect(libraryProblem(join(dir, "missing.so"))).toBe("it does not exist");

    const real = readFileSync(pythonLibrary()).subarray(0, 4096);
    const other = Buffer.from(real);
    other.writeUInt16LE(process.arch === "arm64" ? 62 : 183, 18);
    writeFileSync(join(dir, "other.so"), other);
    expect(libraryProblem(join(dir, "other.so"))).toBe(
      `it is built for ${process.arch === "arm64" ? "x64" : "arm64"} (64-bit), not this ${here}`,
    );
    const program = Buffer.from(real);
    program.writeUInt16LE(2, 16); // ET_EXEC
    writeFileSync(join(dir, "program.so"), program);
    expect(libraryProblem(join(dir, "program.so"))).toBe(
      "it is an ELF file but not a shared library",
    );
  });

  it("reads a package's libraryPath in JavaScript, where a throwing getter is caught", () => {
    const broken = {
      get libraryPath(): string {
        throw new Error("No parser found.");
      },
      extensions: ["swift"],
    };
    expect(registrationProblem(broken)).toBe(
      `its package found no grammar library for this ${here} (No parser found.)`,
    );
    expect(registrationProblem({ libraryPath: "/nowhere/parser.so", extensions: ["x"] })).toBe(
      "its grammar library /nowhere/parser.so cannot be loaded: it does not exist",
    );
    expect(registrationProblem({ libraryPath: pythonLibrary(), extensions: ["py"] })).toBe(
      undefined,
    );
  });

  it("refuses a real library that lacks the grammar's symbol, which panics the loader too", () => {
    const python = { libraryPath: pythonLibrary(), extensions: ["py"] };
    expect(registrationProblem({ ...python, languageSymbol: "tree_sitter_python" })).toBe(
      undefined,
    );
    expect(registrationProblem({ ...python, languageSymbol: "tree_sitter_nope" })).toBe(
      `its grammar library ${pythonLibrary()} cannot be loaded: it has no symbol tree_sitter_nope`,
    );
  });

  it("passes every grammar installed with splice", () => {
    const require = createRequire(join(REPO, "package.json"));
    const ids = readdirSync(join(REPO, "node_modules/@ast-grep")).filter((n) =>
      n.startsWith("lang-"),
    );
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(registrationProblem(require(`@ast-grep/${id}`))).toBeUndefined();
  });
});

/**
 * A copy of splice's install whose @ast-grep/lang-swift is a package whose
 * library is a text file: dist and every other package are links to the
 * real ones, run with --preserve-symlinks so splice resolves its packages here.
 */
function brokenInstall(): string {
  const at = realpathSync(temp());
  const modules = join(at, "node_modules");
  mkdirSync(join(modules, "@ast-grep", "lang-swift"), { recursive: true });
  mkdirSync(join(at, "bin"));
  copyFileSync(join(REPO, "package.json"), join(at, "package.json"));
  copyFileSync(join(REPO, "bin/splice"), join(at, "bin/splice"));
  symlinkSync(join(REPO, "dist"), join(at, "dist"));
  const real = realpathSync(join(REPO, "node_modules"));
  for (const name of readdirSync(real)) {
    if (name !== "@ast-grep") symlinkSync(join(real, name), join(modules, name));
  }
  for (const name of readdirSync(join(real, "@ast-grep"))) {
    if (name !== "lang-swift") {
      symlinkSync(join(real, "@ast-grep", name), join(modules, "@ast-grep", name));
    }
  }
  const swift = join(modules, "@ast-grep", "lang-swift");
  writeFileSync(join(swift, "parser.so"), "not a library\n");
  writeFileSync(
    join(swift, "package.json"),
    JSON.stringify({ name: "@ast-grep/lang-swift", version: "0.0.1", main: "index.js" }),
  );
  writeFileSync(
    join(swift, "index.js"),
    `module.exports = { libraryPath: require("node:path").join(__dirname, "parser.so"), extensions: ["swift"], languageSymbol: "tree_sitter_swift", expandoChar: "µ" };\n`,
  );
  return at;
}

function project(): string {
  const root = temp();
  writeFileSync(join(root, "a.swift"), "func hello() {}\n");
  writeFileSync(join(root, "a.py"), "def f():\n    return 1\n");
  return root;
}

const PRESERVE = ["--preserve-symlinks", "--preserve-symlinks-main"];

describe.runIf(process.platform === "linux")("a broken grammar in a real install", () => {
  it("is a needs_addon error naming the language, and the process goes on to parse others", () => {
    const install = brokenInstall();
    const root = project();
    const script = `
      import { createSplice } from ${JSON.stringify(join(install, "dist/index.js"))};
      const splice = createSplice({ root: ${JSON.stringify(root)} });
      const out = {};
      try {
        await splice.read({ targets: [{ path: "a.swift", symbol: "hello" }] }).then((r) => { out.swift = r; });
      } catch (e) { out.swift = { code: e.code, message: e.message, details: e.details }; }
      out.python = await splice.read({ targets: [{ path: "a.py", symbol: "f" }] });
      console.log(JSON.stringify(out));
    `;
    const r = spawnSync(process.execPath, [...PRESERVE, "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    expect(r.stderr).not.toContain("panicked");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const swift = JSON.stringify(out.swift);
    expect(swift).toContain("needs_addon");
    expect(swift).toContain("Swift support did not load: its grammar library ");
    expect(swift).toContain(
      "parser.so cannot be loaded: it is not an ELF shared library. Reinstall @ast-grep/lang-swift where splice is installed (`npm install @ast-grep/lang-swift`); the other languages work meanwhile.",
    );
    expect(JSON.stringify(out.python)).toContain("1| def f():");
  });

  it("is refused by the CLI with exit 1, and `splice lang list` says it does not load", () => {
    const install = brokenInstall();
    const root = project();
    const splice = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [...PRESERVE, join(install, "bin/splice"), ...args, "--root", root],
        {
          cwd: root,
          encoding: "utf8",
        },
      );
    const swift = splice("read", "a.swift", "--symbol", "hello");
    expect(swift.status).toBe(1);
    expect(`${swift.stdout}${swift.stderr}`).toContain(
      "error [needs_addon]: a.swift: Swift support did not load",
    );
    expect(splice("read", "a.py", "--symbol", "f").stdout).toContain("1| def f():");
    const list = splice("lang", "list");
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^Swift +grammar +does not load/m);
    expect(list.stdout).toContain("Swift does not load: its grammar library ");
  });
});
