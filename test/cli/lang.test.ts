/**
 * Add-on languages through the built command, in a layout like a production
 * install: a copy of splice whose node_modules holds only its dependencies
 * (linked from this clone's), so the add-ons this clone has as
 * devDependencies are not beside it. `lang add` really runs npm (preferring
 * its cache, which `npm ci` filled) into a temporary add-on folder.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stagedInstall } from "../helpers/staged-install.js";

let base: string;
let splice: (args: string[]) => { code: number | null; stdout: string; stderr: string };

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "splice-lang-"));
  const pkg = stagedInstall(base);
  const project = join(base, "project");
  mkdirSync(project);
  writeFileSync(join(project, "a.swift"), 'func greet() -> String {\n  return "hi"\n}\n');
  writeFileSync(join(project, "b.py"), "def greet():\n    return 'hi'\n");
  const env = {
    ...process.env,
    SPLICE_ADDONS: join(base, "addons"),
    npm_config_prefer_offline: "true",
  };
  splice = (args) => {
    const r = spawnSync(process.execPath, [join(pkg, "bin/splice"), ...args, "--root", project], {
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
});

describe("splice lang", () => {
  it("reads the default languages without add-ons, and names the command for a missing one", () => {
    expect(splice(["read", "b.py", "--symbol", "greet"]).stdout).toContain("1| def greet():");
    const swift = splice(["read", "a.swift", "--symbol", "greet"]);
    expect(swift.stdout + swift.stderr).toContain(
      "a.swift: Swift support is not installed: run `splice lang add swift`",
    );
    const outline = splice(["outline", "a.swift"]);
    expect(outline.code).toBe(0);
    expect(outline.stdout).toContain(
      "[no outline (Swift support is not installed: run `splice lang add swift`",
    );
    const ast = splice([
      "ast",
      "return $X",
      "--rewrite",
      "return $X + $X",
      "a.swift",
      "--lang",
      "swift",
    ]);
    expect(ast.code).toBe(1);
    expect(ast.stderr).toContain("Swift support is not installed: run `splice lang add swift`");
  });

  it("validates TypeScript with the server that ships, and names the add-on for Python's", () => {
    const health = JSON.parse(splice(["lsp-health", "--json"]).stdout);
    const of = (id: string) => health.servers.find((s: { language: string }) => s.language === id);
    expect(of("typescript")).toMatchObject({
      server: "typescript-language-server",
      installed: true,
    });
    expect(of("python")).toMatchObject({ server: "pyright", installed: false });
    expect(of("python").install_hint).toContain("run `splice lang add python`");
  });

  it("lists each language with where it was found", () => {
    const list = JSON.parse(splice(["lang", "list", "--json"]).stdout);
    const status = (id: string, part = "grammar") =>
      list.languages.find((l: { id: string; part: string }) => l.id === id && l.part === part)
        ?.status;
    expect(status("typescript")).toBe("built in");
    expect(status("python")).toBe("with splice");
    expect(status("swift")).toBe("not installed");
    expect(status("python", "server")).toBe("not installed");
    expect(list.addon_dir).toBe(join(base, "addons"));
  });

  it("adds an add-on with npm, reads with it, and removes it", { timeout: 180_000 }, () => {
    const add = splice(["lang", "add", "swift"]);
    expect(add.stderr).toBe("");
    expect(add.stdout).toContain("added @ast-grep/lang-swift");
    expect(splice(["read", "a.swift", "--symbol", "greet"]).stdout).toContain(
      "1| func greet() -> String {",
    );
    const list = JSON.parse(splice(["lang", "list", "--json"]).stdout);
    const swift = list.languages.find((l: { id: string }) => l.id === "swift");
    expect(swift).toMatchObject({ status: "add-on", size_kind: "installed" });
    expect(swift.bytes).toBeGreaterThan(1_000_000);
    expect(splice(["lang", "add", "swift"]).stdout).toContain(
      "already installed @ast-grep/lang-swift",
    );

    expect(splice(["lang", "remove", "swift"]).stdout).toContain("removed @ast-grep/lang-swift");
    const after = splice(["read", "a.swift", "--symbol", "greet"]);
    expect(after.stdout + after.stderr).toContain("Swift support is not installed");
  });

  it("refuses a language it does not know, and one that needs no add-on", () => {
    const cobol = splice(["lang", "add", "cobol"]);
    expect(cobol.code).toBe(1);
    expect(cobol.stderr).toContain('"cobol" is not a language splice knows.');
    const go = splice(["lang", "add", "go"]);
    expect(go.code).toBe(1);
    expect(go.stderr).toContain("Go installs with splice; there is nothing to add.");
    expect(splice(["lang", "frobnicate"]).stderr).toContain('"frobnicate" is not a lang action');
  });
});
