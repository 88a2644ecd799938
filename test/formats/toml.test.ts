import { spawnSync } from "node:child_process";
import { parse } from "@decimalturn/toml-patch";
import { describe, expect, it } from "vitest";
import type { DocRequest } from "../../src/formats/actions.js";
import { toJson } from "../../src/formats/values.js";
import { fixture, run, span, thrown } from "./helpers.js";

type Data = Record<string, any>;
const read = (text: string): Data => toJson(parse(text)) as Data;

interface Case {
  request: DocRequest;
  removed: string[];
  added: string[];
  data: (d: Data) => void;
}

const cases: Record<string, Case> = {
  "a value before a comment": {
    request: { action: "set", selector: "package.version", value: "0.8.0" },
    removed: ['version = "0.7.2"   # bumped by the release script'],
    added: ['version = "0.8.0"   # bumped by the release script'],
    data: (d) => {
      d.package.version = "0.8.0";
    },
  },
  "a key inside an inline table": {
    request: { action: "set", selector: "dependencies.serde.version", value: "1.0.200" },
    removed: ['serde = { version = "1.0", features = ["derive"] }'],
    added: ['serde = { version = "1.0.200", features = ["derive"] }'],
    data: (d) => {
      d.dependencies.serde.version = "1.0.200";
    },
  },
  "append to an array in an inline table": {
    request: { action: "append", selector: "dependencies.clap.features", value: "wrap_help" },
    removed: ['clap = { version = "4.5", features = ["derive", "env"] }'],
    added: ['clap = { version = "4.5", features = ["derive", "env", "wrap_help"] }'],
    data: (d) => {
      d.dependencies.clap.features.push("wrap_help");
    },
  },
  "a new key lands at the end of its table": {
    request: { action: "set", selector: "dev-dependencies.pretty_assertions", value: "1" },
    removed: [],
    added: ['pretty_assertions = "1"'],
    data: (d) => {
      d["dev-dependencies"].pretty_assertions = "1";
    },
  },
  "delete a key with its same-line comment": {
    request: { action: "delete", selector: "dependencies.serde_json" },
    removed: ['serde_json = "1.0"   # for --json output'],
    added: [],
    data: (d) => {
      delete d.dependencies.serde_json;
    },
  },
  "merge into a table keeps the other comments": {
    request: { action: "merge", selector: "profile.release", value: { strip: true, lto: "thin" } },
    removed: ["lto = true       # smaller binaries", "codegen-units = 1"],
    added: ['lto = "thin"       # smaller binaries', "codegen-units = 1", "strip = true"],
    data: (d) => {
      d.profile.release.lto = "thin";
      d.profile.release.strip = true;
    },
  },
  "a new table at the end": {
    request: { action: "ensure", selector: "workspace.members", value: ["crates/*"] },
    removed: [],
    added: ["[workspace]", 'members = ["crates/*"]', ""],
    data: (d) => {
      d.workspace = { members: ["crates/*"] };
    },
  },
};

describe("TOML (a Cargo.toml with comments): only the touched bytes change", () => {
  for (const [title, c] of Object.entries(cases)) {
    it(title, () => {
      const original = fixture("Cargo.toml");
      const out = run("Cargo.toml", c.request);
      expect(out.changed).toBe(true);
      expect(span(original, out.text)).toEqual({ removed: c.removed, added: c.added });
      const expected = read(original);
      c.data(expected);
      expect(read(out.text)).toEqual(expected);
    });
  }
});

describe("TOML: errors and no-ops", () => {
  it("delete of a missing key is a no-op", () => {
    expect(run("Cargo.toml", { action: "delete", selector: "dependencies.tokio" })).toMatchObject({
      changed: false,
      removed: 0,
    });
  });

  it("TOML has no null", () => {
    const error = thrown(() =>
      run("Cargo.toml", { action: "set", selector: "package.x", value: null }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("TOML has no null");
  });

  it("refuses a key under a scalar", () => {
    const error = thrown(() =>
      run("Cargo.toml", { action: "set", selector: "package.version.major", value: 1 }),
    );
    expect(error.message).toContain('`package.version` is a string ("0.7.2")');
  });

  it("a document that does not parse is refused with line and column", () => {
    const error = thrown(() =>
      run("Cargo.toml", { action: "get", selector: "a" }, "a = 1\nb = [\n"),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("does not parse as TOML at line 2, column 5");
  });

  it("writes no trailing comma in an inline table, even when the file's arrays have one", () => {
    const text = '[package]\nname = "x"\nauthors = [\n  "a",\n]\n';
    const out = run(
      "Cargo.toml",
      { action: "set", selector: "package.meta", value: { a: [1] } },
      text,
    );
    expect(out.text).toBe(`${text}meta = { a = [ 1 ] }\n`);
    const appended = run(
      "Cargo.toml",
      { action: "append", selector: "package.authors", value: "b" },
      text,
    );
    expect(appended.text).toBe('[package]\nname = "x"\nauthors = [\n  "a",\n  "b",\n]\n');
    // TOML 1.0 forbids `{ a = 1, }`; the library's own parser accepts it, Python's does not.
    const python = spawnSync(
      "python3",
      ["-c", "import sys, tomllib; tomllib.loads(sys.stdin.read())"],
      {
        input: out.text,
        encoding: "utf8",
      },
    );
    if (!python.error) expect(python.stderr).toBe("");
  });

  it("reads arrays of tables", () => {
    expect(run("Cargo.toml", { action: "get", selector: "bin[0].path" }).value).toBe("src/main.rs");
  });
});

describe("TOML: values JSON has no type for", () => {
  const text =
    "released = 1979-05-27T07:32:00Z\nday = 1979-05-27\nbig = 9007199254740993\nn = nan\nwhen = [1979-05-27]\n";
  const toml = (request: DocRequest) => run("a.toml", request, text);

  it("get names each one and the form it is shown in", () => {
    expect(toml({ action: "get", selector: "" })).toMatchObject({
      value: {
        released: "1979-05-27T07:32:00Z",
        day: "1979-05-27",
        big: "9007199254740993",
        n: null,
        when: ["1979-05-27"],
      },
      warnings: [
        '`released` is a TOML date/time, shown as the string "1979-05-27T07:32:00Z".',
        '`day` is a TOML date/time, shown as the string "1979-05-27".',
        '`big` is an integer beyond JSON\'s exact range (2^53), shown as the string "9007199254740993".',
        "`n` is nan, which JSON has no number for, shown as null.",
        '`when[0]` is a TOML date/time, shown as the string "1979-05-27".',
      ],
    });
  });

  it("set in the form get shows keeps the TOML type", () => {
    const out = toml({ action: "set", selector: "released", value: "2000-01-01T00:00:00Z" });
    expect(span(text, out.text)).toEqual({
      removed: ["released = 1979-05-27T07:32:00Z"],
      added: ["released = 2000-01-01T00:00:00Z"],
    });
    expect(out.warnings).toEqual([]);
    expect(toml({ action: "set", selector: "big", value: "9007199254740995" }).text).toContain(
      "\nbig = 9007199254740995\n",
    );
  });

  it("the whole document read with get sets back unchanged", () => {
    const value = toml({ action: "get", selector: "" }).value!;
    expect(toml({ action: "merge", selector: "", value })).toMatchObject({ changed: false, text });
  });

  it("a string in no date/time form replaces a date/time with a warning", () => {
    const out = toml({ action: "set", selector: "when[0]", value: "soon" });
    expect(span(text, out.text).added).toEqual(['when = ["soon"]']);
    expect(out.warnings).toEqual([
      '`when[0]` was a TOML date/time; "soon" is not one, so it is now a string.',
    ]);
  });
});

describe("a set leaves its neighbours' spacing alone", () => {
  it("keeps the aligned comment of the last array item (click's pyproject.toml)", async () => {
    const { openToml } = await import("../../src/formats/toml.js");
    const text =
      '[tool.ruff.lint]\nselect = [\n  "E",  # pycodestyle\n  "UP",  # pyupgrade\n]\n\n[project]\nversion = "1"\n';
    const editor = openToml(text, "pyproject.toml");
    editor.set(["project", "version"], "2");
    expect(editor.text()).toBe(text.replace('version = "1"', 'version = "2"'));
  });

  it("still changes whitespace inside a string when the value asks for it", async () => {
    const { openToml } = await import("../../src/formats/toml.js");
    const text = 'a = "x  y"  # two spaces\nb = 1\n';
    const editor = openToml(text, "t.toml");
    editor.set(["a"], "x y");
    expect(read(editor.text())).toEqual({ a: "x y", b: 1 });
  });
});
