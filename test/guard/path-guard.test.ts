import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolError, type ToolError } from "../../src/errors.js";
import {
  DEFAULT_READ_BLOCKLIST,
  type GuardOptions,
  PathGuard,
  type Scope,
} from "../../src/guard/path-guard.js";

// One real directory tree, with real symlinks, shared by the tests below:
//   world/root            the project
//   world/outside         secrets a link might try to reach
//   world/root2, world/root_backup, "world/root "   siblings sharing the root's name as a prefix
let world: string;
let root: string;
let outsideDir: string;

function write(rel: string, content = "x\n"): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function link(rel: string, target: string): void {
  const at = path.join(root, rel);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

function guard(options: Partial<GuardOptions> = {}): PathGuard {
  return new PathGuard({ root, ...options });
}

function thrown(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError, but the call succeeded");
}

/** Asserts a guard refusal with the given reason, and returns it for more checks. */
function refused(g: PathGuard, input: string, scope: Scope, reason: string): ToolError {
  const error = thrown(() => g.check(input, scope));
  expect(error.code).toBe("guard");
  expect(error.details.reason).toBe(reason);
  expect(error.details.path).toBe(input);
  return error;
}

/** Asserts an invalid path (no file can have it) with the given reason. */
function unusable(g: PathGuard, input: string, scope: Scope, reason: string): ToolError {
  const error = thrown(() => g.check(input, scope));
  expect(error.code).toBe("invalid_input");
  expect(error.details.reason).toBe(reason);
  expect(error.details.path).toBe(input);
  return error;
}

beforeAll(() => {
  world = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "splice-guard-")));
  root = path.join(world, "root");
  outsideDir = path.join(world, "outside");
  fs.mkdirSync(root);
  fs.mkdirSync(outsideDir);
  fs.writeFileSync(path.join(outsideDir, "secret.txt"), "outside secret\n");
  for (const sibling of ["root2", "root_backup", "root "]) {
    fs.mkdirSync(path.join(world, sibling));
    fs.writeFileSync(path.join(world, sibling, "file.txt"), "sibling\n");
  }

  write("README.md");
  write("src/main.ts");
  write("pkg/index.ts");
  write("docs/guide.md");
  write("..test");
  write("a..b");
  write("...");
  write(".hidden");
  write("src/..test");
  write(".gitignore");
  write(".github/workflows/ci.yml");
  write(".git/config");
  write("vendor/lib/.git/HEAD");
  write(".splice/journal.jsonl");
  write(".env", "SECRET=1\n");
  write("config/.env.local", "SECRET=2\n");
  write(".envrc");
  write("certs/key.pem");
  write("server.key");
  write("home/.ssh/id_rsa");
  write("private/notes.txt");

  link("leak.txt", path.join(outsideDir, "secret.txt"));
  link("ext", "../outside");
  link("chain1", "chain2");
  link("chain2", "sub/chain3");
  link("sub/chain3", "../../outside/secret.txt");
  link("good1", "good2");
  link("good2", path.join(root, "good3"));
  link("good3", "src/main.ts");
  link("srclink", "src");
  link("roundtrip", "../root/src/main.ts");
  link("dangling-out", path.join(outsideDir, "created-by-write.txt"));
  link("dangling-dir-out", path.join(outsideDir, "no-such-dir"));
  link("dangling-in", "gen/out.txt");
  link("notes.txt", ".env");
  link("gitlink", ".git");
  link("loop1", "loop2");
  link("loop2", "loop1");
  link("self", "self");
  link("pkg/up.md", "../docs/guide.md");
  link("src/docs-link.md", "../docs/guide.md");
});

afterAll(() => {
  fs.rmSync(world, { recursive: true, force: true });
});

describe("PathGuard construction", () => {
  it("realpaths the root and defaults base to it", () => {
    const g = guard();
    expect(g.root).toBe(root);
    expect(g.base).toBe(root);
  });

  it("refuses a root that does not exist with not_found", () => {
    const error = thrown(() => new PathGuard({ root: path.join(world, "missing") }));
    expect(error.code).toBe("not_found");
    expect(error.message).toMatch(/does not exist.*pass an existing folder/);
  });

  it("refuses a root that is a file", () => {
    const error = thrown(() => new PathGuard({ root: path.join(root, "README.md") }));
    expect(error.code).toBe("invalid_input");
  });

  it("refuses a base outside the root", () => {
    const error = thrown(() => guard({ base: "../outside" }));
    expect(error.code).toBe("guard");
    expect(error.details.reason).toBe("outside_root");
  });

  it("accepts the root through a symlinked spelling and maps that spelling onto the real root", () => {
    const alias = path.join(world, "alias");
    fs.symlinkSync(root, alias);
    const g = new PathGuard({ root: alias });
    expect(g.root).toBe(root);
    const p = g.check(path.join(alias, "src/main.ts"), "read");
    expect(p.abs).toBe(path.join(root, "src/main.ts"));
    expect(p.rel).toBe("src/main.ts");
    refused(g, path.join(alias, "../outside/secret.txt"), "read", "outside_root");
  });
});

describe("PathGuard.check: plain paths", () => {
  it("resolves a relative file inside the root", () => {
    const p = guard().check("src/main.ts", "read");
    expect(p).toEqual({
      input: "src/main.ts",
      abs: path.join(root, "src/main.ts"),
      real: path.join(root, "src/main.ts"),
      rel: "src/main.ts",
      display: "src/main.ts",
      exists: true,
      link: false,
    });
  });

  it("treats '.', the absolute root and a trailing slash as the root itself", () => {
    const g = guard();
    for (const input of [".", root, `${root}/`, "src/.."]) {
      const p = g.check(input, "read");
      expect(p.real).toBe(root);
      expect(p.rel).toBe("");
      expect(p.display).toBe(".");
      expect(p.exists).toBe(true);
    }
  });

  it("refuses an empty path and says what to pass", () => {
    const error = refused(guard(), "", "read", "empty");
    expect(error.message).toMatch(/No path was given.*'\.' for the root/);
  });

  it("refuses NUL bytes anywhere, escaping them in the message", () => {
    const g = guard();
    for (const input of ["src/main.ts\0", "\0", "src\0/../../etc/passwd"]) {
      const error = refused(g, input, "read", "nul_byte");
      expect(error.message).toContain("\\0");
      expect(error.message).not.toContain("\0");
      expect(error.message).toMatch(/Remove it/);
    }
  });

  it("refuses names and paths longer than the system accepts, as invalid input naming the limit", () => {
    const g = guard();
    const name = unusable(g, `src/${"n".repeat(256)}.ts`, "write", "too_long");
    expect(name.message).toMatch(
      /the name 'n+\.ts' in it is 259 bytes long, and a file or folder name may have at most 255 \(NAME_MAX\)\. Use a shorter name\./,
    );
    expect(name.details.limit).toBe(255);
    const long = unusable(g, Array(40).fill("d".repeat(120)).join("/"), "read", "too_long");
    expect(long.message).toMatch(/a whole path may have at most 4,095 \(PATH_MAX\)/);
    // Bytes, not characters: 255 bytes pass, 256 do not.
    expect(g.check(`src/${"é".repeat(126)}.ab`, "write").exists).toBe(false);
    unusable(g, `src/${"é".repeat(127)}.t`, "write", "too_long");
    // A whole path: 4,095 bytes pass, 4,096 do not.
    let fits = `${root}/`;
    while (4095 - fits.length > 250) fits += `${"n".repeat(200)}/`;
    fits += "f".repeat(4095 - fits.length);
    expect(Buffer.byteLength(fits)).toBe(4095);
    expect(g.check(fits, "write").exists).toBe(false);
    unusable(g, `${fits}z`, "write", "too_long");
  });

  it("refuses a path more than 128 names deep before resolving any of it", () => {
    const g = guard();
    expect(g.check(`${"d/".repeat(127)}x.txt`, "write").exists).toBe(false);
    const deep = unusable(g, `${"d/".repeat(128)}x.txt`, "write", "too_deep");
    expect(deep.message).toMatch(
      /is too deep: it is 129 names below the root, and splice allows at most 128\. Use a path with fewer folders\./,
    );
    expect(deep.details.limit).toBe(128);
    // 2,000 folders, 4,005 characters: within PATH_MAX, refused at once.
    const started = performance.now();
    unusable(g, `${"d/".repeat(2000)}x.txt`, "write", "too_deep");
    expect(performance.now() - started).toBeLessThan(50);
    // Names that cancel out do not count.
    expect(g.check(`${"d/../".repeat(500)}src/main.ts`, "read").rel).toBe("src/main.ts");
  });

  it("allows names that merely contain dots", () => {
    const g = guard();
    for (const name of ["..test", "a..b", "...", ".hidden", "src/..test"]) {
      const p = g.check(name, "write");
      expect(p.rel).toBe(name);
      expect(p.exists).toBe(true);
    }
    expect(g.check("..test/new.ts", "write").rel).toBe("..test/new.ts");
  });

  it("allows missing parent folders as long as the path stays inside", () => {
    const p = guard().check("a/b/c/new.ts", "write");
    expect(p.real).toBe(path.join(root, "a/b/c/new.ts"));
    expect(p.rel).toBe("a/b/c/new.ts");
    expect(p.exists).toBe(false);
    expect(guard().check("src/main.ts/below-a-file", "read").exists).toBe(false);
  });

  it("resolves '..' that stays inside the root", () => {
    expect(guard().check("src/../README.md", "read").rel).toBe("README.md");
  });
});

describe("PathGuard.check: escaping the root", () => {
  it("refuses '..' escapes, including a 50-deep one", () => {
    const g = guard();
    const inputs = [
      "..",
      "../outside/secret.txt",
      "src/../../outside",
      `${"../".repeat(50)}etc/passwd`,
    ];
    for (const input of inputs) {
      const error = refused(g, input, "read", "outside_root");
      expect(error.message).toContain(`outside the project root ${root}`);
      expect(error.message).toMatch(/Use a path inside it, such as 'src\/main\.ts'/);
    }
    refused(g, `src/${"../".repeat(50)}tmp/x`, "write", "outside_root");
  });

  it("refuses absolute paths outside the root", () => {
    const g = guard();
    refused(g, "/etc/passwd", "read", "outside_root");
    refused(g, path.join(outsideDir, "secret.txt"), "read", "outside_root");
    refused(g, "/", "read", "outside_root");
    refused(g, world, "read", "outside_root");
  });

  it("refuses sibling folders that share the root's name as a prefix", () => {
    const g = guard();
    for (const sibling of ["root2", "root_backup", "root "]) {
      const file = path.join(world, sibling, "file.txt");
      expect(fs.existsSync(file)).toBe(true);
      refused(g, file, "read", "outside_root");
      refused(g, path.join(world, sibling), "write", "outside_root");
      refused(g, `../${sibling}/file.txt`, "write", "outside_root");
    }
  });
});

describe("PathGuard.check: symlinks", () => {
  it("refuses a file link pointing outside, naming the link", () => {
    const error = refused(guard(), "leak.txt", "read", "symlink_escape");
    expect(error.details.link).toBe("leak.txt");
    expect(error.message).toContain("'leak.txt' is a symbolic link");
    expect(error.message).toContain("does not follow links out of the root");
  });

  it("refuses a folder link pointing outside, and any path through it", () => {
    const g = guard();
    refused(g, "ext", "read", "symlink_escape");
    const error = refused(g, "ext/secret.txt", "read", "symlink_escape");
    expect(error.details.link).toBe("ext");
    expect(error.message).toContain("goes through the symbolic link 'ext'");
    refused(g, "ext/new.txt", "write", "symlink_escape");
    // '..' in the input is lexical (as in `abs`), so it cancels the link before it is followed.
    expect(g.check("ext/../README.md", "read").real).toBe(path.join(root, "README.md"));
  });

  it("refuses a chain of links that ends outside, naming the link that leaves", () => {
    const error = refused(guard(), "chain1", "read", "symlink_escape");
    expect(error.details.link).toBe("sub/chain3");
  });

  it("follows a chain of links that ends inside; real is the final target", () => {
    const p = guard().check("good1", "read");
    expect(p.abs).toBe(path.join(root, "good1"));
    expect(p.real).toBe(path.join(root, "src/main.ts"));
    expect(p.rel).toBe("src/main.ts");
    expect(p.display).toBe("good1");
    expect(p.exists).toBe(true);
    expect(p.link).toBe(true); // the name itself is a link
  });

  it("follows a folder link inside the root", () => {
    const p = guard().check("srclink/main.ts", "write");
    expect(p.abs).toBe(path.join(root, "srclink/main.ts"));
    expect(p.rel).toBe("src/main.ts");
    expect(p.link).toBe(false); // a link above the name, not the name
    expect(guard().check("srclink", "read").link).toBe(true);
  });

  it("allows a link whose target leaves and re-enters the root (its final place decides)", () => {
    expect(guard().check("roundtrip", "read").rel).toBe("src/main.ts");
  });

  it("refuses a dangling link to outside, so a write cannot create the outside file", () => {
    const g = guard();
    const outsideFile = path.join(outsideDir, "created-by-write.txt");
    refused(g, "dangling-out", "write", "symlink_escape");
    refused(g, "dangling-out", "read", "symlink_escape");
    refused(g, "dangling-dir-out/new.txt", "write", "symlink_escape");
    expect(fs.existsSync(outsideFile)).toBe(false);
    expect(fs.existsSync(path.join(outsideDir, "no-such-dir"))).toBe(false);
  });

  it("resolves a dangling link inside the root to its missing target", () => {
    const p = guard().check("dangling-in", "write");
    expect(p.real).toBe(path.join(root, "gen/out.txt"));
    expect(p.rel).toBe("gen/out.txt");
    expect(p.exists).toBe(false);
    expect(p.link).toBe(true);
  });

  it("refuses link loops with a clear error", () => {
    const g = guard();
    for (const input of ["loop1", "self", "loop1/x"]) {
      const error = refused(g, input, "read", "link_loop");
      expect(error.message).toMatch(/more than 40 symbolic links.*loop/);
      expect(error.message).toMatch(/ask the user to fix or remove/);
    }
  });

  it("follows 40 link hops and stops at 41", () => {
    for (let i = 0; i < 41; i++) link(`hops/l${i}`, i === 40 ? "../README.md" : `l${i + 1}`);
    const g = guard();
    expect(g.check("hops/l1", "read").rel).toBe("README.md"); // 40 links
    refused(g, "hops/l0", "read", "link_loop"); // 41 links
  });
});

describe("PathGuard.check: Unicode", () => {
  const nfc = "caf\u00e9";
  const nfd = "cafe\u0301";

  it("refuses an NFD look-alike of the root's folder name", () => {
    const uni = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "splice-guard-u-")));
    try {
      fs.mkdirSync(path.join(uni, nfc));
      fs.mkdirSync(path.join(uni, nfd));
      fs.writeFileSync(path.join(uni, nfd, "x.txt"), "look-alike\n");
      expect(fs.readdirSync(uni)).toHaveLength(2);
      const g = new PathGuard({ root: path.join(uni, nfc) });
      refused(g, path.join(uni, nfd, "x.txt"), "read", "outside_root");
      refused(g, `../${nfd}/x.txt`, "write", "outside_root");
      expect(g.check(path.join(uni, nfc, "x.txt"), "write").exists).toBe(false);
    } finally {
      fs.rmSync(uni, { recursive: true, force: true });
    }
  });

  it("keeps NFC and NFD names inside the root distinct, and allows both", () => {
    write(`unicode/${nfc}.txt`, "nfc\n");
    write(`unicode/${nfd}.txt`, "nfd\n");
    expect(fs.readdirSync(path.join(root, "unicode"))).toHaveLength(2);
    const g = guard();
    const a = g.check(`unicode/${nfc}.txt`, "write");
    const b = g.check(`unicode/${nfd}.txt`, "write");
    expect(a.exists && b.exists).toBe(true);
    expect(a.rel).toBe(`unicode/${nfc}.txt`);
    expect(b.rel).toBe(`unicode/${nfd}.txt`);
    expect(a.real).not.toBe(b.real);
    expect(fs.readFileSync(b.real, "utf8")).toBe("nfd\n");
  });
});

describe("PathGuard.check: block and allow lists", () => {
  it("always blocks .git internals and .splice, but not .gitignore or .github", () => {
    for (const g of [guard(), guard({ readBlocklist: [] })]) {
      for (const input of [".git", ".git/config", "vendor/lib/.git/HEAD", "x/.git", ".splice"]) {
        for (const scope of ["read", "write"] as const) {
          const error = refused(g, input, scope, "blocked");
          expect(error.details.list).toBe("always");
        }
      }
      expect(refused(g, ".git/config", "read", "blocked").message).toMatch(/use git commands/);
      expect(refused(g, ".splice/journal.jsonl", "write", "blocked").message).toMatch(/undo/);
      expect(g.check(".gitignore", "write").exists).toBe(true);
      expect(g.check(".github/workflows/ci.yml", "write").exists).toBe(true);
    }
  });

  it("blocks a history folder kept elsewhere in the root, by either spelling, like .splice", () => {
    fs.mkdirSync(path.join(root, "hist[1]"), { recursive: true });
    link("hist-alias", "hist[1]");
    for (const dir of [path.join(root, "hist[1]"), path.join(root, "hist-alias")]) {
      const g = guard({ historyDir: dir });
      for (const input of [
        "hist[1]",
        "hist[1]/journal.jsonl",
        "./HIST[1]/blobs/x",
        "hist-alias/j",
      ]) {
        const error = refused(g, input, "write", "blocked");
        expect(error.details.list).toBe("always");
        expect(error.message).toMatch(
          /inside 'hist(\[1\]|-alias)', which holds splice's own history/,
        );
      }
      expect(g.check("hist[1]x/a.txt", "write").real).toBe(path.join(root, "hist[1]x/a.txt"));
      expect(g.check("hist1", "read").real).toBe(path.join(root, "hist1"));
    }
    // A history folder outside the root, or not made yet, blocks nothing else.
    expect(guard({ historyDir: os.tmpdir() }).check("a.txt", "read").real).toBe(
      path.join(root, "a.txt"),
    );
    expect(refused(guard({ historyDir: path.join(root, "later") }), "later/j", "read", "blocked"));
  });

  it("blocks secrets for reading and writing by default", () => {
    const g = guard();
    const secrets = [
      ".env",
      "config/.env.local",
      ".envrc",
      "certs/key.pem",
      "server.key",
      "home/.ssh/id_rsa",
      "deep/a/b/.env",
      "deep/id_ed25519.pub",
    ];
    for (const input of secrets) {
      const error = refused(g, input, "read", "blocked");
      expect(error.details.list).toBe("secrets");
      expect(error.message).toMatch(/ask the user/);
      const write = refused(g, input, "write", "blocked");
      expect(write.message).toContain("does not write files it may not read");
    }
    expect(DEFAULT_READ_BLOCKLIST).toContain("**/.env");
  });

  it("lets templates of secrets and look-alike names through", () => {
    write(".env.example", "KEY=\n");
    write("src/id_utils.py");
    const g = guard();
    expect(g.check(".env.example", "read").exists).toBe(true);
    expect(g.check("src/id_utils.py", "write").exists).toBe(true);
  });

  it("blocks a link whose target is blocked, even under an innocent name", () => {
    const g = guard();
    const error = refused(g, "notes.txt", "read", "blocked");
    expect(error.details.matched).toBe(".env");
    expect(error.message).toContain("which leads to '.env'");
    refused(g, "gitlink/config", "read", "blocked");
  });

  it("lets readBlocklist replace the secret patterns, keeping .git and .splice blocked", () => {
    const g = guard({ readBlocklist: ["private/**"] });
    expect(g.check(".env", "read").exists).toBe(true);
    expect(g.check("certs/key.pem", "write").exists).toBe(true);
    const error = refused(g, "private/notes.txt", "read", "blocked");
    expect(error.details.list).toBe("read_block");
    expect(error.message).toMatch(/Choose another file/);
    refused(g, ".git/config", "read", "blocked");
    refused(g, ".splice/journal.jsonl", "read", "blocked");
  });

  it("applies the write allowlist and blocklist to writes only", () => {
    const g = guard({ allowlist: ["src/**", "pkg/**"], blocklist: ["src/generated/**"] });
    expect(g.check("src/new.ts", "write").exists).toBe(false);
    expect(g.check("README.md", "read").exists).toBe(true);
    const error = refused(g, "README.md", "write", "not_allowed");
    expect(error.message).toMatch(/not in the write allow list.*'src\/\*\*', 'pkg\/\*\*'/);
    expect(error.message).toMatch(/ask the user to widen/);
    expect(g.check("src/generated/api.ts", "read").exists).toBe(false);
    const blocked = refused(g, "src/generated/api.ts", "write", "blocked");
    expect(blocked.details.list).toBe("write_block");
    expect(blocked.message).toMatch(/may read it but not change it/);
    // The link's name is allowed, the file it reaches is not.
    refused(g, "src/docs-link.md", "write", "not_allowed");
    // The root itself is exempt from allow lists (it is the folder being listed).
    expect(g.check(".", "write").rel).toBe("");
  });

  it("applies readAllowlist to reads and, through them, to writes", () => {
    const g = guard({ readAllowlist: ["src/**", "docs/**"] });
    expect(g.check("docs/guide.md", "read").exists).toBe(true);
    const error = refused(g, "README.md", "read", "not_allowed");
    expect(error.details.list).toBe("read_allow");
    refused(g, "README.md", "write", "not_allowed");
  });
});

describe("PathGuard.check: base and confinement", () => {
  it("resolves relative inputs against base", () => {
    for (const base of ["pkg", path.join(root, "pkg")]) {
      const g = guard({ base });
      expect(g.base).toBe(path.join(root, "pkg"));
      const p = g.check("index.ts", "read");
      expect(p.abs).toBe(path.join(root, "pkg/index.ts"));
      expect(p.rel).toBe("pkg/index.ts");
      expect(g.check("../README.md", "read").rel).toBe("README.md");
      expect(g.check(".", "read").rel).toBe("pkg");
      refused(g, "../../outside/secret.txt", "read", "outside_root");
    }
  });

  it("keeps every path inside base when confined", () => {
    const g = guard({ base: "pkg", confine: true });
    expect(g.check("index.ts", "write").rel).toBe("pkg/index.ts");
    const error = refused(g, "../README.md", "read", "outside_root");
    expect(error.details.boundary).toBe("base");
    expect(error.message).toMatch(/outside the working folder 'pkg'.*confined/);
    refused(g, path.join(root, "README.md"), "write", "outside_root");
    const link = refused(g, "up.md", "read", "symlink_escape");
    expect(link.details.boundary).toBe("base");
    expect(link.message).toContain("does not follow links out of the working folder");
  });
});

describe("PathGuard.relative", () => {
  it("gives the root-relative display of a path inside", () => {
    const g = guard();
    expect(g.relative(root)).toBe(".");
    expect(g.relative(path.join(root, "src/main.ts"))).toBe("src/main.ts");
  });
});

describe("PathGuard.check: property", () => {
  it("either refuses a path or returns one whose real place is inside the root", () => {
    const g = guard();
    const part = fc.constantFrom(
      "..",
      ".",
      "src",
      "..test",
      "ext",
      "srclink",
      "chain1",
      "dangling-out",
      "dangling-in",
      "loop1",
      "roundtrip",
      "root2",
      "root",
      "new",
    );
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 8 }), (parts) => {
        const input = parts.join("/");
        let real: string;
        try {
          real = g.check(input, "write").real;
        } catch (error) {
          expect(isToolError(error) && error.code === "guard").toBe(true);
          return;
        }
        expect(real === root || real.startsWith(`${root}/`)).toBe(true);
        // What the kernel would reach agrees: the deepest existing ancestor is inside.
        let probe = real;
        while (!fs.existsSync(probe)) probe = path.dirname(probe);
        const kernel = fs.realpathSync(probe);
        expect(kernel === root || kernel.startsWith(`${root}/`)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("checkEntry (a plain file of a checked folder)", () => {
  it("answers as check does, from the folder's resolution", () => {
    write("entry/src/a.ts");
    write("entry/src/.env", "TOKEN=x\n");
    write("entry/src/server.pem");
    const g = guard();
    const folder = g.check(path.join(root, "entry/src"), "read");
    for (const name of ["a.ts", ".env", "server.pem"]) {
      const abs = path.join(root, "entry/src", name);
      let full: unknown;
      try {
        full = g.check(abs, "read");
      } catch (error) {
        full = (error as ToolError).code;
      }
      let quick: unknown;
      try {
        quick = g.checkEntry(folder, name, "read");
      } catch (error) {
        quick = (error as ToolError).code;
      }
      if (typeof full === "string") expect(quick).toBe(full);
      else expect(quick).toMatchObject({ abs, real: abs, rel: `entry/src/${name}` });
    }
    expect(thrown(() => g.checkEntry(folder, ".env", "read")).code).toBe("guard");
  });
});
