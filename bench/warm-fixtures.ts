/**
 * The projects bench/warm.ts works on, each made in a scratch folder: small
 * Python and TypeScript projects to edit, a copy of this repository's src/,
 * JavaScript files for a syntax rewrite, a project holding the MCP SDK in
 * node_modules, and a committed tree of 100,000 small files.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Rng } from "./lib.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** `git init`, and with `commit` everything committed (git status then has an index to compare). */
export function gitInit(dir: string, commit = false): void {
  // No background gc: it would write into .git while the scratch folder is removed.
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "gc.auto=0", ...args], { stdio: "ignore" });
  git("init", "-q");
  if (!commit) return;
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "tree");
}

function files(dir: string, contents: Record<string, string>): void {
  for (const [path, text] of Object.entries(contents)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A project the edit row changes: the file, and the line `RETRIES = N` in it. */
export interface EditProject {
  /** "python" or "typescript", as lsp-health names it. */
  language: string;
  label: string;
  file: string;
  make(dir: string): void;
}

export const PYTHON: EditProject = {
  language: "python",
  label: "Python",
  file: "app/config.py",
  make(dir) {
    files(dir, {
      "pyproject.toml": '[project]\nname = "demo"\nversion = "0.1.0"\n',
      "app/__init__.py": "",
      "app/config.py":
        "from dataclasses import dataclass\n\nRETRIES = 0\n\n\n@dataclass\nclass Config:\n    name: str\n    retries: int = RETRIES\n",
      "app/models.py":
        "from app.config import Config\n\n\ndef describe(config: Config) -> str:\n    return f'{config.name}: {config.retries}'\n",
      "app/main.py":
        "from app.config import Config\nfrom app.models import describe\n\n\ndef main() -> None:\n    print(describe(Config('demo')))\n",
    });
    gitInit(dir, true);
  },
};

export const TYPESCRIPT: EditProject = {
  language: "typescript",
  label: "TypeScript",
  file: "src/config.ts",
  make(dir) {
    files(dir, {
      "package.json": '{ "name": "demo", "type": "module", "private": true }\n',
      "tsconfig.json":
        '{\n  "compilerOptions": { "strict": true, "target": "es2022", "module": "nodenext", "noEmit": true },\n  "include": ["src"]\n}\n',
      "src/config.ts":
        "export const RETRIES = 0;\n\nexport interface Config {\n  name: string;\n  retries: number;\n}\n\nexport const defaults: Config = { name: 'demo', retries: RETRIES };\n",
      "src/models.ts":
        "import type { Config } from './config.js';\n\nexport function describe(config: Config): string {\n  return config.name + ': ' + config.retries;\n}\n",
      "src/main.ts":
        "import { defaults } from './config.js';\nimport { describe } from './models.js';\n\nconsole.log(describe(defaults));\n",
    });
    gitInit(dir, true);
  },
};

/** A copy of this repository's src/ as a committed project; how many files. */
export function copySource(dir: string): number {
  let count = 0;
  cpSync(join(REPO, "src"), join(dir, "src"), {
    recursive: true,
    filter: () => {
      count++;
      return true;
    },
  });
  gitInit(dir, true);
  return count;
}

/** The pattern rewritten in the JavaScript files, and back. */
export const LOG_CALL = "console.log($$$ARGS)";
export const LOG_CALL_OUT = "logger.info($$$ARGS)";
export const JS_FILES = 100;
export const CALLS_PER_FILE = 20;

/** JS_FILES seeded JavaScript files in ten folders, each with CALLS_PER_FILE console.log calls. */
export function javascriptFiles(dir: string): void {
  const rng = new Rng(0x3a57);
  for (let i = 0; i < JS_FILES; i++) {
    const parts: string[] = [`import { compute } from "../util.js";\n`];
    for (let j = 0; j < CALLS_PER_FILE; j++) {
      const k = rng.int(1, 99);
      parts.push(
        `export function step${j}(input, options = {}) {\n` +
          `  const value = compute(input, ${k}) + (options.offset ?? 0);\n` +
          `  if (value > ${k * 10}) {\n    console.log("step${j}", value, { input });\n  }\n` +
          `  return value * ${rng.int(2, 9)};\n}\n`,
      );
    }
    files(dir, { [`lib/part${i % 10}/module${i}.js`]: parts.join("\n") });
  }
  files(dir, { "lib/util.js": "export const compute = (a, b) => a * b;\n" });
}

/** A project with @modelcontextprotocol/sdk copied into its node_modules (ignored, as in any project). */
export function sdkProject(dir: string): void {
  const sdk = realpathSync(join(REPO, "node_modules", "@modelcontextprotocol", "sdk"));
  cpSync(sdk, join(dir, "node_modules", "@modelcontextprotocol", "sdk"), { recursive: true });
  files(dir, {
    ".gitignore": "node_modules/\n",
    "package.json": '{ "name": "demo", "dependencies": { "@modelcontextprotocol/sdk": "*" } }\n',
    "server.ts":
      'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n',
  });
  gitInit(dir, true);
}

/**
 * `count` files of one line, PER_FOLDER to a folder, in groups of 32 folders,
 * committed with git fast-import: one pack, not 100,000 loose objects to
 * write and remove.
 */
export function bigTree(dir: string, count: number, perFolder = 100): void {
  const stream: string[] = [];
  const paths: string[] = [];
  const add = (path: string, text: string) => {
    paths.push(path);
    writeFileSync(join(dir, path), text);
    stream.push(`blob\nmark :${paths.length}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  };
  mkdirSync(dir, { recursive: true });
  add(".gitignore", "node_modules/\n");
  for (let i = 0; i < count; i++) {
    const folder = Math.floor(i / perFolder);
    const path = `pkg${Math.floor(folder / 32)}/mod${folder}`;
    if (i % perFolder === 0) mkdirSync(join(dir, path), { recursive: true });
    add(`${path}/file${i}.ts`, `export const value${i} = ${i};\n`);
  }
  stream.push(
    "commit refs/heads/main\ncommitter bench <bench@example.invalid> 0 +0000\ndata 5\ntree\n",
  );
  stream.push(...paths.map((path, i) => `M 100644 :${i + 1} ${path}\n`), "\n");
  const git = (args: string[], input?: string) =>
    execFileSync("git", ["-C", dir, "-c", "gc.auto=0", ...args], {
      input,
      stdio: ["pipe", "ignore", "inherit"],
    });
  git(["init", "-q"]);
  git(["fast-import", "--quiet"], stream.join(""));
  git(["symbolic-ref", "HEAD", "refs/heads/main"]);
  git(["reset", "-q"]); // the index, from the commit
}
