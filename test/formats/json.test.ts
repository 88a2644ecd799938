import { parse as parseJsonc } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import type { DocRequest } from "../../src/formats/actions.js";
import { runDocAction } from "../../src/formats/actions.js";
import { formatOf } from "../../src/formats/formats.js";
import { editorFor } from "../../src/formats/open.js";
import { fixture, run, span, thrown } from "./helpers.js";

type Data = Record<string, any>;

interface Case {
  request: DocRequest;
  removed: string[];
  added: string[];
  /** What the change means, applied to the parsed original. */
  data: (d: Data) => void;
}

function preserves(name: string, read: (text: string) => Data, cases: Record<string, Case>) {
  describe(`${name}: only the touched bytes change`, () => {
    for (const [title, c] of Object.entries(cases)) {
      it(title, () => {
        const original = fixture(name);
        const out = run(name, c.request);
        expect(out.changed).toBe(true);
        expect(span(original, out.text)).toEqual({ removed: c.removed, added: c.added });
        const expected = read(original);
        c.data(expected);
        expect(read(out.text)).toEqual(expected);
      });
    }
  });
}

preserves("package.json", JSON.parse, {
  "set an existing string": {
    request: { action: "set", selector: "scripts.test", value: "vitest run --coverage" },
    removed: ['    "test": "vitest run",'],
    added: ['    "test": "vitest run --coverage",'],
    data: (d) => {
      d.scripts.test = "vitest run --coverage";
    },
  },
  "add a key at the end of an object": {
    request: { action: "set", selector: "scripts.bench", value: "vitest bench" },
    removed: ['    "prepare": "npm run build"'],
    added: ['    "prepare": "npm run build",', '    "bench": "vitest bench"'],
    data: (d) => {
      d.scripts.bench = "vitest bench";
    },
  },
  "delete the last key (the comma before it goes)": {
    request: { action: "delete", selector: "dependencies.left-pad" },
    removed: ['    "d3-scale": "^4.0.2",', '    "left-pad": "^1.3.0"'],
    added: ['    "d3-scale": "^4.0.2"'],
    data: (d) => {
      delete d.dependencies["left-pad"];
    },
  },
  "delete a middle key": {
    request: { action: "delete", selector: "devDependencies.eslint" },
    removed: ['    "eslint": "^8.57.0",'],
    added: [],
    data: (d) => {
      delete d.devDependencies.eslint;
    },
  },
  "delete_where removes the matching items": {
    request: { action: "delete_where", selector: "contributors", where: { name: "left-pad" } },
    removed: ['    { "name": "left-pad", "email": "bot@example.com" },'],
    added: [],
    data: (d) => {
      d.contributors.splice(1, 1);
    },
  },
  "append to a one-line array keeps it on one line": {
    request: { action: "append", selector: "keywords", value: "svg" },
    removed: ['  "keywords": ["widgets", "dashboard", "charts"],'],
    added: ['  "keywords": ["widgets", "dashboard", "charts", "svg"],'],
    data: (d) => {
      d.keywords.push("svg");
    },
  },
  "append to a multi-line array": {
    request: { action: "append", selector: "files", value: "LICENSE" },
    removed: ['    "README.md"'],
    added: ['    "README.md",', '    "LICENSE"'],
    data: (d) => {
      d.files.push("LICENSE");
    },
  },
  "merge adds and replaces deep keys": {
    request: {
      action: "merge",
      selector: "",
      value: { engines: { node: ">=20", npm: ">=10" }, publishConfig: { access: "public" } },
    },
    removed: ['    "node": ">=18"'],
    added: [
      '    "node": ">=20",',
      '    "npm": ">=10"',
      "  },",
      '  "publishConfig": {',
      '    "access": "public"',
    ],
    data: (d) => {
      d.engines = { node: ">=20", npm: ">=10" };
      d.publishConfig = { access: "public" };
    },
  },
  "ensure creates missing parents": {
    request: { action: "ensure", selector: "publishConfig.access", value: "public" },
    removed: [],
    added: ["  },", '  "publishConfig": {', '    "access": "public"'],
    data: (d) => {
      d.publishConfig = { access: "public" };
    },
  },
  "set an item of an array by negative index": {
    request: { action: "set", selector: "contributors[-1].name", value: "G. Hopper" },
    removed: ['    { "name": "Grace Hopper", "email": "grace@example.com" }'],
    added: ['    { "name": "G. Hopper", "email": "grace@example.com" }'],
    data: (d) => {
      d.contributors[2].name = "G. Hopper";
    },
  },
  "a key with dots and slashes, quoted": {
    request: { action: "set", selector: 'exports["./charts"].import', value: "./dist/charts.js" },
    removed: ['      "import": "./dist/charts/index.js"'],
    added: ['      "import": "./dist/charts.js"'],
    data: (d) => {
      d.exports["./charts"].import = "./dist/charts.js";
    },
  },
});

preserves("tsconfig.json", (text) => parseJsonc(text), {
  "set a value before a trailing comment": {
    request: { action: "set", selector: "compilerOptions.module", value: "ESNext" },
    removed: ['    "module": "NodeNext", // matches "type": "module"'],
    added: ['    "module": "ESNext", // matches "type": "module"'],
    data: (d) => {
      d.compilerOptions.module = "ESNext";
    },
  },
  "delete a key with its same-line comment": {
    request: { action: "delete", selector: "compilerOptions.module" },
    removed: ['    "module": "NodeNext", // matches "type": "module"'],
    added: [],
    data: (d) => {
      delete d.compilerOptions.module;
    },
  },
  "a comment heading a group stays when its first key goes": {
    request: { action: "delete", selector: "compilerOptions.strict" },
    removed: ['    "strict": true,'],
    added: [],
    data: (d) => {
      delete d.compilerOptions.strict;
    },
  },
  "trailing commas stay the file's style when appending": {
    request: { action: "append", selector: "include", value: "bench" },
    removed: [],
    added: ['    "bench",'],
    data: (d) => {
      d.include.push("bench");
    },
  },
  "append to a one-line array with a trailing comma": {
    request: { action: "append", selector: "exclude", value: "coverage" },
    removed: ['  "exclude": ["node_modules", "dist",],'],
    added: ['  "exclude": ["node_modules", "dist", "coverage",],'],
    data: (d) => {
      d.exclude.push("coverage");
    },
  },
  "new arrays of plain values follow their neighbours onto one line": {
    request: { action: "merge", selector: "compilerOptions", value: { types: ["node"] } },
    removed: [],
    added: ['    "types": ["node"],'],
    data: (d) => {
      d.compilerOptions.types = ["node"];
    },
  },
  "a nested object whose last member has a trailing comma": {
    request: { action: "set", selector: 'compilerOptions.paths["#lib/*"]', value: ["./lib/*"] },
    removed: [],
    added: ['      "#lib/*": ["./lib/*"],'],
    data: (d) => {
      d.compilerOptions.paths["#lib/*"] = ["./lib/*"];
    },
  },
  "delete a whole object": {
    request: { action: "delete", selector: "compilerOptions.paths" },
    removed: ['    "paths": {', '      "@/*": ["./src/*"],', "    },"],
    added: [],
    data: (d) => {
      delete d.compilerOptions.paths;
    },
  },
});

describe("JSON and JSONC: no-ops and errors", () => {
  it("delete of a missing key is an idempotent no-op", () => {
    const out = run("package.json", { action: "delete", selector: "dependencies.nope" });
    expect(out).toMatchObject({ changed: false, removed: 0, text: fixture("package.json") });
    const deeper = run("package.json", { action: "delete", selector: "nope.deeper[3]" });
    expect(deeper).toMatchObject({ changed: false, removed: 0 });
  });

  it("set to the value already there writes nothing", () => {
    const out = run("package.json", { action: "set", selector: "version", value: "2.4.1" });
    expect(out).toMatchObject({ changed: false, text: fixture("package.json") });
  });

  it("ensure leaves an existing value alone and reports it", () => {
    const out = run("package.json", { action: "ensure", selector: "scripts.test", value: "x" });
    expect(out).toMatchObject({ changed: false, value: "vitest run" });
    expect(out.warnings[0]).toContain("already exists");
  });

  it("get returns the value, resolved to plain JSON", () => {
    expect(run("package.json", { action: "get", selector: "contributors[0]" }).value).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
    });
    expect(run("tsconfig.json", { action: "get", selector: "compilerOptions.lib" }).value).toEqual([
      "ES2023",
      "DOM",
    ]);
  });

  it("refuses a key under a scalar, an index out of range, and a key on an array", () => {
    const scalar = thrown(() =>
      run("package.json", { action: "set", selector: "name.first", value: 1 }),
    );
    expect(scalar.code).toBe("invalid_input");
    expect(scalar.message).toContain(
      '`name` is a string ("@acme/widgets"), which has no keys or items',
    );
    const range = thrown(() =>
      run("package.json", { action: "set", selector: "files[5]", value: "x" }),
    );
    expect(range.message).toContain("`files` has 2 items, so [5] is out of range");
    expect(range.message).toContain('Use the "append" action');
    const key = thrown(() =>
      run("package.json", { action: "set", selector: "files.first", value: "x" }),
    );
    expect(key.message).toContain("`files` is an array; address its items by index, e.g. files[0]");
  });

  it("get of a missing key is not_found and lists the keys that are there", () => {
    const error = thrown(() => run("package.json", { action: "get", selector: "scripts.tset" }));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain(
      '`scripts` has no key "tset" (its keys: "build", "test", "lint", "prepare")',
    );
  });

  it("a document that does not parse is refused with line and column", () => {
    const broken = '{\n  "a": 1,\n  "b": 2\n  "c": 3\n}\n';
    const error = thrown(() =>
      run("package.json", { action: "set", selector: "a", value: 2 }, broken),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("comma expected at line 4, column 3");
    expect(error.details).toMatchObject({ line: 4, column: 3 });
  });

  it("strict JSON refuses comments that JSONC accepts", () => {
    const text = '{\n  // note\n  "a": 1\n}\n';
    const strict = thrown(() => run("package.json", { action: "get", selector: "a" }, text));
    expect(strict.message).toContain("read as strict JSON: no comments, no trailing commas");
    expect(run("tsconfig.json", { action: "get", selector: "a" }, text).value).toBe(1);
  });

  it("reads Renovate's config as JSONC: real renovate.json files carry trailing commas", () => {
    const text = '{\n  "assignees": ["0hlov3"],\n}\n';
    expect(formatOf("renovate.json")).toBe("jsonc");
    expect(formatOf(".github/.renovaterc.json")).toBe("jsonc");
    expect(formatOf("renovate-presets.json")).toBe("json");
    const out = runDocAction(editorFor("jsonc", "renovate.json"), "renovate.json", text, {
      action: "set",
      selector: "assignees[0]",
      value: "me",
    });
    expect(out.text).toBe('{\n  "assignees": ["me"],\n}\n');
  });

  it("merge needs an object and an existing object to merge into", () => {
    const notObject = thrown(() =>
      run("package.json", { action: "merge", selector: "scripts", value: [1] }),
    );
    expect(notObject.message).toContain('The "merge" action takes an object');
    const intoString = thrown(() =>
      run("package.json", { action: "merge", selector: "name", value: { a: 1 } }),
    );
    expect(intoString.message).toContain("Cannot merge into `name`");
  });

  it("the whole document can be read and merged, but not set or deleted", () => {
    expect(run("package.json", { action: "get", selector: "" }).value).toMatchObject({
      version: "2.4.1",
    });
    const error = thrown(() => run("package.json", { action: "delete", selector: "" }));
    expect(error.message).toContain("names the whole document");
  });

  it("an empty file gets its first key", () => {
    const out = run("package.json", { action: "set", selector: "name", value: "x" }, "");
    expect(JSON.parse(out.text)).toEqual({ name: "x" });
  });

  it("the only member of an object leaves {} behind", () => {
    const out = run("package.json", { action: "delete", selector: "engines.node" });
    expect(span(fixture("package.json"), out.text)).toEqual({
      removed: ['  "engines": {', '    "node": ">=18"', "  }"],
      added: ['  "engines": {}'],
    });
  });

  it("appends to a document that is an array, and keeps one-line containers on one line", () => {
    expect(run("package.json", { action: "append", selector: "", value: 3 }, "[1, 2]\n").text).toBe(
      "[1, 2, 3]\n",
    );
    const oneLine = '{ "x": [], "y": {} }\n';
    const x = run("package.json", { action: "append", selector: "x", value: { a: 1 } }, oneLine);
    expect(x.text).toBe('{ "x": [{ "a": 1 }], "y": {} }\n');
    const y = run("package.json", { action: "set", selector: "y.b", value: [true] }, oneLine);
    expect(y.text).toBe('{ "x": [], "y": { "b": [true] } }\n');
  });

  it("a new member goes before a comment that closes the object", () => {
    const text = '{\n  "a": 1, // one\n  // more to come\n}\n';
    const out = run("tsconfig.json", { action: "set", selector: "b", value: 2 }, text);
    expect(out.text).toBe('{\n  "a": 1, // one\n  "b": 2,\n  // more to come\n}\n');
  });

  it("a comment above a member that stands alone goes with it, with the blank line before", () => {
    const text = '{\n  "a": 1,\n\n  // about b\n  "b": 2\n}\n';
    expect(run("tsconfig.json", { action: "delete", selector: "b" }, text).text).toBe(
      '{\n  "a": 1\n}\n',
    );
  });

  it("tabs stay tabs", () => {
    const text = '{\n\t"a": {\n\t\t"b": 1\n\t}\n}\n';
    const out = run("package.json", { action: "set", selector: "a.c", value: { d: [1] } }, text);
    expect(out.text).toBe(
      '{\n\t"a": {\n\t\t"b": 1,\n\t\t"c": {\n\t\t\t"d": [\n\t\t\t\t1\n\t\t\t]\n\t\t}\n\t}\n}\n',
    );
  });
});
