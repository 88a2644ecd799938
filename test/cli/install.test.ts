/**
 * Installs splice as a user would: `npm pack`, then `npm install -g` of the
 * tarball into a fresh prefix (from npm's cache, offline), then runs the
 * installed `splice`. It takes a minute, so it runs only when asked:
 * `npm run test:install` (after `npm run build`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "../..");
const asked = process.env.SPLICE_INSTALL_TEST === "1";

describe.skipIf(!asked)("installing the package", () => {
  it("packs, installs globally into a fresh prefix, and runs splice", () => {
    const work = mkdtempSync(join(tmpdir(), "splice-install-"));
    const npm = (args: string[], cwd: string) =>
      execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    // dist/ is built already; packing must not rebuild it.
    npm(["pack", "--ignore-scripts", "--pack-destination", work], REPO);
    const tarball = readdirSync(work).find((n) => n.endsWith(".tgz"))!;
    expect(tarball).toMatch(/^splice-tools-\d+\.\d+\.\d+\.tgz$/);
    const prefix = join(work, "prefix");
    npm(
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--offline",
        "--no-audit",
        "--no-fund",
        join(work, tarball),
      ],
      work,
    );
    const bin = join(prefix, "bin", "splice");
    const help = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: splice <command> [flags]");
    // The installed command finds its grammars and tools, not only its help.
    const project = join(work, "project");
    execFileSync("mkdir", ["-p", join(project, ".git")]);
    writeFileSync(join(project, "main.go"), "package main\n\nfunc main() {}\n");
    const outline = spawnSync(bin, ["outline", "main.go"], { cwd: project, encoding: "utf8" });
    expect(outline.stderr).toBe("");
    expect(outline.stdout).toContain("func main()");
  }, 300_000);
});
