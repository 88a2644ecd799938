/**
 * The languages splice parses, all through one engine: @ast-grep/napi (its
 * built-in TypeScript, TSX, JavaScript, HTML and CSS, plus the prebuilt
 * `@ast-grep/lang-*` grammars). A file's language comes from its name.
 */
import { createRequire } from "node:module";
import path from "node:path";
import {
  type DynamicLangRegistrations,
  Lang,
  parse,
  parseAsync,
  registerDynamicLanguage,
  type SgRoot,
} from "@ast-grep/napi";

export interface Language {
  /** Stable lower-case id: "typescript", "python", "cpp". */
  id: string;
  /** How people write it: "TypeScript", "C++". */
  name: string;
  /** The name ast-grep knows it by. */
  napi: string;
  /** Lower-case extensions without the dot. */
  extensions: readonly string[];
  /** File names (no extension) that are this language. */
  filenames?: readonly string[];
  /** Other names a caller may use for it. */
  aliases?: readonly string[];
  /**
   * The character ast-grep puts in place of `$` in a pattern when `$` cannot
   * start an identifier in the language; "$" when it can.
   */
  expando: string;
}

interface Entry extends Omit<Language, "napi" | "expando"> {
  builtin?: Lang;
  /** The `@ast-grep/lang-*` package name suffix. */
  pkg?: string;
}

const TABLE: readonly Entry[] = [
  {
    id: "typescript",
    name: "TypeScript",
    builtin: Lang.TypeScript,
    extensions: ["ts", "mts", "cts"],
    aliases: ["ts"],
  },
  { id: "tsx", name: "TSX", builtin: Lang.Tsx, extensions: ["tsx"] },
  {
    id: "javascript",
    name: "JavaScript",
    builtin: Lang.JavaScript,
    extensions: ["js", "mjs", "cjs", "jsx"],
    aliases: ["js", "jsx", "node"],
  },
  { id: "html", name: "HTML", builtin: Lang.Html, extensions: ["html", "htm"] },
  { id: "css", name: "CSS", builtin: Lang.Css, extensions: ["css"] },
  {
    id: "python",
    name: "Python",
    pkg: "python",
    extensions: ["py", "pyi", "pyw"],
    aliases: ["py"],
  },
  { id: "rust", name: "Rust", pkg: "rust", extensions: ["rs"], aliases: ["rs"] },
  { id: "go", name: "Go", pkg: "go", extensions: ["go"], aliases: ["golang"] },
  { id: "java", name: "Java", pkg: "java", extensions: ["java"] },
  { id: "c", name: "C", pkg: "c", extensions: ["c", "h"] },
  {
    id: "cpp",
    name: "C++",
    pkg: "cpp",
    extensions: ["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "cu", "ino"],
    aliases: ["c++", "cxx"],
  },
  { id: "csharp", name: "C#", pkg: "csharp", extensions: ["cs"], aliases: ["c#", "cs"] },
  {
    id: "ruby",
    name: "Ruby",
    pkg: "ruby",
    extensions: ["rb", "rbw", "rake", "gemspec"],
    filenames: ["Rakefile", "Gemfile"],
    aliases: ["rb"],
  },
  { id: "php", name: "PHP", pkg: "php", extensions: ["php"] },
  {
    id: "kotlin",
    name: "Kotlin",
    pkg: "kotlin",
    extensions: ["kt", "kts", "ktm"],
    aliases: ["kt"],
  },
  { id: "swift", name: "Swift", pkg: "swift", extensions: ["swift"] },
  { id: "scala", name: "Scala", pkg: "scala", extensions: ["scala", "sc", "sbt"] },
  {
    id: "bash",
    name: "Bash",
    pkg: "bash",
    extensions: ["sh", "bash", "zsh", "ksh", "bats"],
    aliases: ["sh", "shell", "zsh"],
  },
  { id: "lua", name: "Lua", pkg: "lua", extensions: ["lua"] },
  { id: "elixir", name: "Elixir", pkg: "elixir", extensions: ["ex", "exs"], aliases: ["ex"] },
  { id: "haskell", name: "Haskell", pkg: "haskell", extensions: ["hs"], aliases: ["hs"] },
  { id: "dart", name: "Dart", pkg: "dart", extensions: ["dart"] },
  { id: "yaml", name: "YAML", pkg: "yaml", extensions: ["yaml", "yml"], aliases: ["yml"] },
  { id: "json", name: "JSON", pkg: "json", extensions: ["json"] },
  { id: "toml", name: "TOML", pkg: "toml", extensions: ["toml"] },
];

interface Registry {
  languages: Language[];
  byExtension: Map<string, Language>;
  byFilename: Map<string, Language>;
  byName: Map<string, Language>;
}

// registerDynamicLanguage replaces what an earlier call registered, so it is
// called exactly once per process, with every grammar in one object.
const REGISTERED = Symbol.for("splice.code.languages");
type Global = typeof globalThis & { [REGISTERED]?: Registry };

function load(): Registry {
  const global = globalThis as Global;
  const cached = global[REGISTERED];
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const dynamic: DynamicLangRegistrations = {};
  const languages: Language[] = [];
  for (const entry of TABLE) {
    const { builtin, pkg, ...rest } = entry;
    if (builtin) {
      languages.push({ ...rest, napi: builtin, expando: "$" });
      continue;
    }
    try {
      const registration = require(`@ast-grep/lang-${pkg}`) as DynamicLangRegistrations[string];
      dynamic[entry.id] = registration;
      languages.push({ ...rest, napi: entry.id, expando: registration.expandoChar ?? "$" });
    } catch {
      // A grammar without a prebuilt library for this platform is left out.
    }
  }
  registerDynamicLanguage(dynamic);
  const registry: Registry = {
    languages,
    byExtension: new Map(),
    byFilename: new Map(),
    byName: new Map(),
  };
  for (const language of languages) {
    for (const ext of language.extensions) registry.byExtension.set(ext, language);
    for (const name of language.filenames ?? []) registry.byFilename.set(name, language);
    for (const name of [language.id, language.name, ...(language.aliases ?? [])]) {
      registry.byName.set(name.toLowerCase(), language);
    }
  }
  global[REGISTERED] = registry;
  return registry;
}

export function supportedLanguages(): readonly Language[] {
  return load().languages;
}

/** "TypeScript, TSX, JavaScript, …": for error messages. */
export function supportedLanguageNames(): string {
  return supportedLanguages()
    .map((l) => l.name)
    .join(", ");
}

/** The language of a file, by extension (case-insensitive) or well-known name. */
export function languageOf(file: string): Language | undefined {
  const registry = load();
  const base = path.posix.basename(file.replaceAll("\\", "/"));
  const byName = registry.byFilename.get(base);
  if (byName) return byName;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return undefined;
  return registry.byExtension.get(base.slice(dot + 1).toLowerCase());
}

/** A language by id, name or alias ("ts", "C++", "golang"), case-insensitive. */
export function languageNamed(name: string): Language | undefined {
  return load().byName.get(name.trim().toLowerCase());
}

export class UnknownLanguageError extends Error {
  constructor(readonly requested: string) {
    super(
      `"${requested}" is not a language splice parses. The supported languages are: ${supportedLanguageNames()}.`,
    );
    this.name = "UnknownLanguageError";
  }
}

/** A language by name, or an UnknownLanguageError that lists the supported ones. */
export function requireLanguage(name: string): Language {
  const language = languageNamed(name);
  if (!language) throw new UnknownLanguageError(name);
  return language;
}

/** Why a file has no syntax support: one sentence naming the supported languages. */
export function unsupportedFile(display: string): string {
  return `${display} is not in a language splice parses (it goes by the file extension). The supported languages are: ${supportedLanguageNames()}.`;
}

export function parseCode(language: Language, text: string): SgRoot {
  load();
  return parse(language.napi, text);
}

/** Parses on the libuv thread pool, so several files parse side by side. */
export function parseCodeAsync(language: Language, text: string): Promise<SgRoot> {
  load();
  return parseAsync(language.napi, text);
}
