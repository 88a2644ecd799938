/**
 * The languages splice parses, all through one engine: @ast-grep/napi (its
 * built-in TypeScript, TSX, JavaScript, HTML and CSS, plus the prebuilt
 * `@ast-grep/lang-*` grammars). A file's language comes from its name.
 * The common languages' grammars install with splice; the others are
 * add-ons (util/addons.ts), and a file in one that is not installed gets a
 * sentence naming the command that installs it.
 */
import path from "node:path";
import {
  type DynamicLangRegistrations,
  Lang,
  parse,
  parseAsync,
  registerDynamicLanguage,
  type SgRoot,
} from "@ast-grep/napi";
import { type FoundAddon, findAddon, requireAddon } from "../util/addons.js";
import { registrationProblem } from "./grammar-library.js";

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
  /** Not installed with splice: `splice lang add ID` installs it. */
  addon?: true;
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
  { id: "java", name: "Java", pkg: "java", addon: true, extensions: ["java"] },
  { id: "c", name: "C", pkg: "c", addon: true, extensions: ["c", "h"] },
  {
    id: "cpp",
    name: "C++",
    pkg: "cpp",
    addon: true,
    extensions: ["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "cu", "ino"],
    aliases: ["c++", "cxx"],
  },
  {
    id: "csharp",
    name: "C#",
    pkg: "csharp",
    addon: true,
    extensions: ["cs"],
    aliases: ["c#", "cs"],
  },
  {
    id: "ruby",
    name: "Ruby",
    pkg: "ruby",
    addon: true,
    extensions: ["rb", "rbw", "rake", "gemspec"],
    filenames: ["Rakefile", "Gemfile"],
    aliases: ["rb"],
  },
  { id: "php", name: "PHP", pkg: "php", addon: true, extensions: ["php"] },
  {
    id: "kotlin",
    name: "Kotlin",
    pkg: "kotlin",
    addon: true,
    extensions: ["kt", "kts", "ktm"],
    aliases: ["kt"],
  },
  { id: "swift", name: "Swift", pkg: "swift", addon: true, extensions: ["swift"] },
  { id: "scala", name: "Scala", pkg: "scala", addon: true, extensions: ["scala", "sc", "sbt"] },
  {
    id: "bash",
    name: "Bash",
    pkg: "bash",
    extensions: ["sh", "bash", "zsh", "ksh", "bats"],
    aliases: ["sh", "shell", "zsh"],
  },
  { id: "lua", name: "Lua", pkg: "lua", addon: true, extensions: ["lua"] },
  {
    id: "elixir",
    name: "Elixir",
    pkg: "elixir",
    addon: true,
    extensions: ["ex", "exs"],
    aliases: ["ex"],
  },
  {
    id: "haskell",
    name: "Haskell",
    pkg: "haskell",
    addon: true,
    extensions: ["hs"],
    aliases: ["hs"],
  },
  { id: "dart", name: "Dart", pkg: "dart", addon: true, extensions: ["dart"] },
  { id: "yaml", name: "YAML", pkg: "yaml", extensions: ["yaml", "yml"], aliases: ["yml"] },
  { id: "json", name: "JSON", pkg: "json", extensions: ["json"] },
  { id: "toml", name: "TOML", pkg: "toml", extensions: ["toml"] },
];

/** A language whose grammar was found but cannot be loaded here, and why. */
interface Broken {
  why: string;
  from: FoundAddon["from"];
}

interface Registry {
  languages: Language[];
  /** Add-on languages that are not installed (or do not load), by extension, file name and name. */
  missing: Map<string, Entry>;
  /** Grammars found that cannot be loaded, by language id. */
  broken: Map<string, Broken>;
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
  const dynamic: DynamicLangRegistrations = {};
  const languages: Language[] = [];
  const missing = new Map<string, Entry>();
  const broken = new Map<string, Broken>();
  for (const entry of TABLE) {
    const { builtin, pkg, addon: _, ...rest } = entry;
    if (builtin) {
      languages.push({ ...rest, napi: builtin, expando: "$" });
      continue;
    }
    const found = findAddon(grammarPackage(entry));
    let registration: DynamicLangRegistrations[string] | undefined;
    if (found) {
      try {
        registration = requireAddon(found) as DynamicLangRegistrations[string];
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        broken.set(entry.id, { why: `its package does not load (${why})`, from: found.from });
      }
    }
    // ast-grep aborts the process on a library it cannot open: each is checked first.
    const problem = registration && registrationProblem(registration);
    if (found && problem) broken.set(entry.id, { why: problem, from: found.from });
    if (registration && !problem) {
      dynamic[entry.id] = registration;
      languages.push({ ...rest, napi: entry.id, expando: registration.expandoChar ?? "$" });
    } else {
      for (const key of namesOf(entry)) missing.set(key, entry);
    }
  }
  registerDynamicLanguage(dynamic);
  const registry: Registry = {
    languages,
    missing,
    broken,
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

const grammarPackage = (entry: Entry) => `@ast-grep/lang-${entry.pkg}`;

/** The keys a language is looked up by: ".ext", file names, and lower-case names. */
function namesOf(entry: Entry): string[] {
  return [
    ...entry.extensions.map((e) => `.${e}`),
    ...(entry.filenames ?? []),
    ...[entry.id, entry.name, ...(entry.aliases ?? [])].map((n) => n.toLowerCase()),
  ];
}

export interface GrammarInfo {
  id: string;
  name: string;
  /** The npm package, or undefined for a grammar built into ast-grep. */
  package?: string;
  /** Installed with splice by default, or an add-on. */
  addon: boolean;
  installed: boolean;
  /** Why a grammar that is installed does not load here. */
  problem?: string;
}

/** Every language splice knows, installed or not: what `splice lang list` shows. */
export function grammarCatalog(): GrammarInfo[] {
  const { missing, broken } = load();
  return TABLE.map((entry) => {
    const problem = broken.get(entry.id)?.why;
    return {
      id: entry.id,
      name: entry.name,
      ...(entry.pkg ? { package: grammarPackage(entry) } : {}),
      addon: entry.addon === true,
      installed: !missing.has(entry.id),
      ...(problem ? { problem } : {}),
    };
  });
}

/**
 * "Swift support is not installed: …" for a known language that is missing,
 * or "Swift support did not load: …" for one whose grammar is broken; else
 * undefined. Both end with the command that installs it again.
 */
function notInstalled(entry: Entry | undefined): string | undefined {
  if (!entry) return undefined;
  const broken = load().broken.get(entry.id);
  if (broken?.from === "splice") {
    return `${entry.name} support did not load: ${broken.why}. Reinstall ${grammarPackage(entry)} where splice is installed (\`npm install ${grammarPackage(entry)}\`); the other languages work meanwhile.`;
  }
  if (broken) {
    return `${entry.name} support did not load: ${broken.why}. Install it again: run \`splice lang add ${entry.id}\`; the other languages work meanwhile.`;
  }
  return `${entry.name} support is not installed: run \`splice lang add ${entry.id}\` (or add ${grammarPackage(entry)} to the project beside splice).`;
}

/** The add-on language a file is in when its grammar is not installed or does not load. */
export function missingEntry(file: string): { id: string; name: string } | undefined {
  const { missing } = load();
  const base = path.posix.basename(file.replaceAll("\\", "/"));
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot).toLowerCase() : undefined;
  return missing.get(base) ?? (ext ? missing.get(ext) : undefined);
}

/** "Swift support is not installed: run …" when a file is in an add-on language not installed. */
export function missingLanguage(file: string): string | undefined {
  return notInstalled(missingEntry(file) as Entry | undefined);
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
  /** The language is one splice knows, but its grammar is not installed or does not load. */
  readonly needsAddon: boolean;

  constructor(readonly requested: string) {
    const missing = notInstalled(load().missing.get(requested.trim().toLowerCase()));
    super(
      missing ??
        `"${requested}" is not a language splice parses. The supported languages are: ${supportedLanguageNames()}.`,
    );
    this.name = "UnknownLanguageError";
    this.needsAddon = missing !== undefined;
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
  const missing = missingLanguage(display);
  if (missing) return `${display}: ${missing}`;
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

/**
 * Below this many characters a batch parses a text here, not on the pool:
 * handing a 1 KB text to a pool thread and back costs about 0.1 ms of CPU on
 * top of its 0.2 ms parse, and on two cores the batch is no faster for it
 * (bench ast-plan). Larger texts parse side by side.
 */
export const POOL_MIN_CHARS = 4096;

/** A parse in work over many files: on the thread pool when the text is large enough to pay for it. */
export async function parseInBatch(language: Language, text: string): Promise<SgRoot> {
  return text.length < POOL_MIN_CHARS ? parseCode(language, text) : parseCodeAsync(language, text);
}
