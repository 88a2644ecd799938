import { describe, expect, it } from "vitest";
import {
  languageNamed,
  languageOf,
  parseCode,
  requireLanguage,
  supportedLanguageNames,
  supportedLanguages,
  unsupportedFile,
} from "../../src/code/languages.js";

describe("languages", () => {
  it("registers every grammar once, so each one parses", () => {
    const ids = supportedLanguages().map((l) => l.id);
    expect(ids).toEqual([
      "typescript",
      "tsx",
      "javascript",
      "html",
      "css",
      "python",
      "rust",
      "go",
      "java",
      "c",
      "cpp",
      "csharp",
      "ruby",
      "php",
      "kotlin",
      "swift",
      "scala",
      "bash",
      "lua",
      "elixir",
      "haskell",
      "dart",
      "yaml",
      "json",
      "toml",
    ]);
    for (const language of supportedLanguages()) {
      const root = parseCode(language, "x").root();
      expect(root.text()).toBe("x");
    }
  });

  it("knows a file's language by extension or name", () => {
    expect(languageOf("src/a.ts")?.id).toBe("typescript");
    expect(languageOf("src/A.TSX")?.id).toBe("tsx");
    expect(languageOf("lib/x.mjs")?.id).toBe("javascript");
    expect(languageOf("x/y.pyi")?.id).toBe("python");
    expect(languageOf("Rakefile")?.id).toBe("ruby");
    expect(languageOf("notes.txt")).toBeUndefined();
    expect(languageOf("Makefile")).toBeUndefined();
  });

  it("takes names and aliases, and names the supported languages when it cannot", () => {
    expect(languageNamed("C++")?.id).toBe("cpp");
    expect(languageNamed("golang")?.id).toBe("go");
    expect(languageNamed("TS")?.id).toBe("typescript");
    expect(() => requireLanguage("cobol")).toThrow(
      `"cobol" is not a language splice parses. The supported languages are: ${supportedLanguageNames()}.`,
    );
    expect(supportedLanguageNames()).toMatch(
      /^TypeScript, TSX, JavaScript, HTML, CSS, Python, Rust, Go, /,
    );
    expect(unsupportedFile("notes.txt")).toContain("The supported languages are: TypeScript");
  });
});
