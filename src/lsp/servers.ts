/**
 * Which language server validates which files. typescript-language-server
 * ships with splice; the TypeScript 7 native server and pyright are add-ons
 * (`splice lang add typescript` / `python`, util/addons.ts), found beside
 * splice or in its add-on folder, so they work whatever the user's PATH
 * holds; the others (gopls, rust-analyzer, clangd) are found on PATH.
 */
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, extname, join } from "node:path";
import { addonDir, findAddon } from "../util/addons.js";
import { freshMemo } from "../util/fresh-memo.js";

export type LanguageId = "typescript" | "python" | "go" | "rust" | "cpp";

export interface Language {
  id: LanguageId;
  /** How people name it: "TypeScript/JavaScript". */
  label: string;
  /** File extension -> the LSP languageId of a document. */
  extensions: Record<string, string>;
  /** Files that mark a folder as this language's project. */
  markers: string[];
  /** Server names, the default first. */
  servers: string[];
  /** The command that checks a project without a server. */
  checkCommand: string;
}

export interface Launch {
  command: string;
  args: string[];
}

export interface ServerSpec {
  name: string;
  language: LanguageId;
  /** How to start it, or undefined when it is not installed. */
  resolve(): Launch | undefined;
  /** What to do when it is missing: install it, or the command that checks the code instead. */
  installHint: string;
  initializationOptions?: unknown;
  /** Answers to `workspace/configuration`, by section. */
  settings?: Record<string, unknown>;
}

export const LANGUAGES: readonly Language[] = [
  {
    id: "typescript",
    label: "TypeScript/JavaScript",
    extensions: {
      ".ts": "typescript",
      ".mts": "typescript",
      ".cts": "typescript",
      ".tsx": "typescriptreact",
      ".js": "javascript",
      ".mjs": "javascript",
      ".cjs": "javascript",
      ".jsx": "javascriptreact",
    },
    markers: ["tsconfig.json", "jsconfig.json", "package.json"],
    servers: ["tsgo", "typescript-language-server"],
    checkCommand: "npx tsc --noEmit",
  },
  {
    id: "python",
    label: "Python",
    extensions: { ".py": "python", ".pyi": "python" },
    markers: [
      "pyproject.toml",
      "pyrightconfig.json",
      "setup.py",
      "setup.cfg",
      "requirements.txt",
      "Pipfile",
      "tox.ini",
    ],
    servers: ["pyright"],
    checkCommand: "npx pyright",
  },
  {
    id: "go",
    label: "Go",
    extensions: { ".go": "go" },
    markers: ["go.mod", "go.work"],
    servers: ["gopls"],
    checkCommand: "go vet ./...",
  },
  {
    id: "rust",
    label: "Rust",
    extensions: { ".rs": "rust" },
    markers: ["Cargo.toml"],
    servers: ["rust-analyzer"],
    checkCommand: "cargo check",
  },
  {
    id: "cpp",
    label: "C/C++",
    extensions: {
      ".c": "c",
      ".h": "c",
      ".cc": "cpp",
      ".cpp": "cpp",
      ".cxx": "cpp",
      ".hh": "cpp",
      ".hpp": "cpp",
      ".hxx": "cpp",
    },
    markers: ["compile_commands.json", "compile_flags.txt", ".clangd", "CMakeLists.txt"],
    servers: ["clangd"],
    checkCommand: "the project's build",
  },
];

/**
 * The folder of an installed package (beside splice or an add-on), or undefined. Asked on
 * every edit (which server validates it): kept 5 s, so `splice lang add` is seen soon.
 */
const packageDir = (name: string): string | undefined => addonFolder(addonDir(), name);

const addonFolder = freshMemo(
  5_000,
  (dir: string, name: string): string | undefined => findAddon(name, dir)?.dir,
);

/** A package's own dependency, resolved from that package's folder (kept like packageDir). */
const dependencyDir = freshMemo(5_000, (of: string, name: string): string | undefined => {
  try {
    return dirname(createRequire(join(of, "package.json")).resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
});

/** A Node script of an installed package, run with this Node. */
function nodeScript(pkg: string, script: string, args: string[]): Launch | undefined {
  const dir = packageDir(pkg);
  return dir ? { command: process.execPath, args: [join(dir, script), ...args] } : undefined;
}

/** The native tsgo binary itself: its Node wrapper would sit between us and the process we stop. */
function tsgo(): Launch | undefined {
  const main = packageDir("@typescript/native-preview");
  if (!main) return undefined;
  const exe = process.platform === "win32" ? "tsgo.exe" : "tsgo";
  const platform = `@typescript/native-preview-${process.platform}-${process.arch}`;
  const native = dependencyDir(main, platform);
  if (native) return { command: join(native, "lib", exe), args: ["--lsp", "--stdio"] };
  return { command: process.execPath, args: [join(main, "bin", "tsgo"), "--lsp", "--stdio"] };
}

/** The first executable named `name` on PATH. */
export function findOnPath(name: string, path = process.env.PATH ?? ""): string | undefined {
  const exts = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {}
    }
  }
  return undefined;
}

/** Whether a command names an executable file, directly or on PATH. */
export function runnable(command: string): boolean {
  if (!/[\\/]/.test(command)) return findOnPath(command) !== undefined;
  try {
    accessSync(command, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, args: string[] = []): () => Launch | undefined {
  return () => {
    const command = findOnPath(name);
    return command ? { command, args } : undefined;
  };
}

const typescriptLib = () => {
  const dir = packageDir("typescript");
  return dir ? join(dir, "lib") : undefined;
};

export const SERVERS: Record<string, ServerSpec> = {
  tsgo: {
    name: "tsgo",
    language: "typescript",
    resolve: tsgo,
    installHint:
      "The TypeScript 7 native server is an add-on: run `splice lang add typescript` (typescript-language-server is used meanwhile, with the project's own typescript), or run npx tsc --noEmit to check the code.",
  },
  "typescript-language-server": {
    name: "typescript-language-server",
    language: "typescript",
    resolve: () => nodeScript("typescript-language-server", "lib/cli.mjs", ["--stdio"]),
    installHint:
      "splice ships typescript-language-server; reinstall splice's dependencies (npm ci), or run npx tsc --noEmit to check the code.",
    get initializationOptions() {
      // A typescript beside splice (the project's, or splice's own in a clone) is used; else the server looks in the project.
      const path = typescriptLib();
      return path ? { tsserver: { path } } : {};
    },
  },
  pyright: {
    name: "pyright",
    language: "python",
    resolve: () => nodeScript("pyright", "langserver.index.js", ["--stdio"]),
    installHint:
      "pyright, which validates Python edits, is an add-on: run `splice lang add python`, or run pyright / mypy to check the code.",
  },
  gopls: {
    name: "gopls",
    language: "go",
    resolve: onPath("gopls"),
    installHint:
      "No server for Go: install gopls (go install golang.org/x/tools/gopls@latest) or run go vet ./...",
  },
  "rust-analyzer": {
    name: "rust-analyzer",
    language: "rust",
    resolve: onPath("rust-analyzer"),
    installHint:
      "No server for Rust: install rust-analyzer (rustup component add rust-analyzer) or run cargo check.",
  },
  clangd: {
    name: "clangd",
    language: "cpp",
    resolve: onPath("clangd"),
    installHint: "No server for C/C++: install clangd (e.g. apt install clangd) or run your build.",
  },
};

/** The language a file belongs to by its extension, with the document's languageId. */
export function languageOf(path: string): { language: Language; languageId: string } | undefined {
  const ext = extname(path).toLowerCase();
  for (const language of LANGUAGES) {
    const languageId = language.extensions[ext];
    if (languageId) return { language, languageId };
  }
  return undefined;
}

export function languageById(id: string): Language | undefined {
  const wanted = id.toLowerCase();
  return LANGUAGES.find(
    (l) =>
      l.id === wanted ||
      l.label.toLowerCase().split("/").includes(wanted) ||
      Object.keys(l.extensions).includes(`.${wanted}`),
  );
}
