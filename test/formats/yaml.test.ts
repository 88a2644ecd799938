import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { DocRequest } from "../../src/formats/actions.js";
import { fixture, run, span, thrown } from "./helpers.js";

type Data = Record<string, any>;
const read = (text: string): Data => parse(text, { merge: true });

interface Case {
  request: DocRequest;
  removed: string[];
  added: string[];
  data: (d: Data) => void;
}

const cases: Record<string, Case> = {
  "a quoted scalar keeps its quotes and its comment": {
    request: { action: "set", selector: "env.NODE_VERSION", value: "22" },
    removed: ['  NODE_VERSION: "20"   # the LTS line we support'],
    added: ['  NODE_VERSION: "22"   # the LTS line we support'],
    data: (d) => {
      d.env.NODE_VERSION = "22";
      d.jobs.build.env.NODE_VERSION = "22";
    },
  },
  "a plain scalar deep in a list item": {
    request: { action: "set", selector: "jobs.build.steps[1].with.node-version", value: "20.x" },
    removed: ["          node-version: ${{ env.NODE_VERSION }}"],
    added: ["          node-version: 20.x"],
    data: (d) => {
      d.jobs.build.steps[1].with["node-version"] = "20.x";
    },
  },
  "an item of a flow list keeps the single quotes": {
    request: { action: "set", selector: "on.push.branches[1]", value: "release/*" },
    removed: ["    branches: [main, 'release/**']"],
    added: ["    branches: [main, 'release/*']"],
    data: (d) => {
      d.on.push.branches[1] = "release/*";
    },
  },
  "append to a flow list": {
    request: { action: "append", selector: "jobs.release.needs", value: "lint" },
    removed: ["    needs: [build]"],
    added: ["    needs: [build, lint]"],
    data: (d) => {
      d.jobs.release.needs.push("lint");
    },
  },
  "append a step after a block scalar, before the blank line": {
    request: {
      action: "append",
      selector: "jobs.build.steps",
      value: { name: "Upload", uses: "actions/upload-artifact@v4", with: { path: "coverage/" } },
    },
    removed: [],
    added: [
      "      - name: Upload",
      "        uses: actions/upload-artifact@v4",
      "        with:",
      "          path: coverage/",
    ],
    data: (d) => {
      d.jobs.build.steps.push({
        name: "Upload",
        uses: "actions/upload-artifact@v4",
        with: { path: "coverage/" },
      });
    },
  },
  "replace a whole step": {
    request: {
      action: "set",
      selector: "jobs.build.steps[2]",
      value: { run: "npm ci --ignore-scripts" },
    },
    removed: ["      - run: npm ci"],
    added: ["      - run: npm ci --ignore-scripts"],
    data: (d) => {
      d.jobs.build.steps[2] = { run: "npm ci --ignore-scripts" };
    },
  },
  "a multi-line string becomes a block scalar at the right indent": {
    request: {
      action: "set",
      selector: "jobs.release.steps[1].run",
      value: "npm ci\nnpm publish\n",
    },
    removed: ["        run: npm publish --provenance"],
    added: ["        run: |", "          npm ci", "          npm publish"],
    data: (d) => {
      d.jobs.release.steps[1].run = "npm ci\nnpm publish\n";
    },
  },
  "delete a step in the middle of a list; the comment above the next stays": {
    request: { action: "delete", selector: "jobs.build.steps[0]" },
    removed: ["      - uses: actions/checkout@v4"],
    added: [],
    data: (d) => {
      d.jobs.build.steps.shift();
    },
  },
  "delete a commented step followed by another: the comment heads the rest and stays": {
    request: { action: "delete", selector: "jobs.build.steps[1]" },
    removed: [
      "      - name: Set up Node",
      "        uses: actions/setup-node@v4",
      "        with:",
      "          node-version: ${{ env.NODE_VERSION }}",
      "          cache: npm",
    ],
    added: [],
    data: (d) => {
      d.jobs.build.steps.splice(1, 1);
    },
  },
  "delete the first key of a list item: the next key moves behind the dash": {
    request: { action: "delete", selector: "jobs.build.steps[1].name" },
    removed: ["      - name: Set up Node", "        uses: actions/setup-node@v4"],
    added: ["      - uses: actions/setup-node@v4"],
    data: (d) => {
      delete d.jobs.build.steps[1].name;
    },
  },
  "delete the last job with the blank line before it": {
    request: { action: "delete", selector: "jobs.release" },
    removed: [
      "  release:",
      "    <<: *job-defaults",
      "    needs: [build]",
      "    if: github.ref == 'refs/heads/main'",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - name: Publish",
      "        run: npm publish --provenance",
      "        env:",
      "          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
      "",
    ],
    added: [],
    data: (d) => {
      delete d.jobs.release;
    },
  },
  "delete_where matches items by their keys": {
    request: { action: "delete_where", selector: "jobs.release.steps", where: { name: "Publish" } },
    removed: [
      "      - name: Publish",
      "        run: npm publish --provenance",
      "        env:",
      "          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
    ],
    added: [],
    data: (d) => {
      d.jobs.release.steps.pop();
    },
  },
  "a key that came from a merge key is set on the map itself": {
    request: { action: "set", selector: "jobs.release.timeout-minutes", value: 30 },
    removed: [],
    added: ["    timeout-minutes: 30"],
    data: (d) => {
      d.jobs.release["timeout-minutes"] = 30;
    },
  },
  "a null value becomes a map": {
    request: {
      action: "set",
      selector: "on.workflow_dispatch.inputs.debug",
      value: { type: "boolean" },
    },
    removed: [],
    added: ["    inputs:", "      debug:", "        type: boolean"],
    data: (d) => {
      d.on.workflow_dispatch = { inputs: { debug: { type: "boolean" } } };
    },
  },
  "merge adds keys after the last one of the map": {
    request: {
      action: "merge",
      selector: "jobs.release",
      value: { permissions: { contents: "read", "id-token": "write" } },
    },
    removed: [],
    added: ["    permissions:", "      contents: read", "      id-token: write"],
    data: (d) => {
      d.jobs.release.permissions = { contents: "read", "id-token": "write" };
    },
  },
  "a string a YAML 1.1 reader would take for a boolean is quoted": {
    request: { action: "set", selector: "name", value: "on" },
    removed: ["name: CI"],
    added: ['name: "on"'],
    data: (d) => {
      d.name = "on";
    },
  },
  "an anchored map keeps its anchor when replaced": {
    request: { action: "set", selector: "env", value: { CI: "true" } },
    removed: ['  NODE_VERSION: "20"   # the LTS line we support', "  FORCE_COLOR: 1"],
    added: ['  CI: "true"'],
    data: (d) => {
      d.env = { CI: "true" };
      d.jobs.build.env = { CI: "true" };
    },
  },
  "a new list of plain values next to flow lists is a flow list": {
    request: { action: "ensure", selector: "on.push.tags", value: ["v*"] },
    removed: [],
    added: ["    tags: [v*]"],
    data: (d) => {
      d.on.push.tags = ["v*"];
    },
  },
};

describe("YAML (a GitHub Actions workflow with anchors, merge keys and comments): only the touched bytes change", () => {
  for (const [title, c] of Object.entries(cases)) {
    it(title, () => {
      const original = fixture("ci.yml");
      const out = run("ci.yml", c.request);
      expect(out.changed).toBe(true);
      expect(span(original, out.text)).toEqual({ removed: c.removed, added: c.added });
      const expected = read(original);
      c.data(expected);
      expect(read(out.text)).toEqual(expected);
    });
  }
});

describe("YAML: reads, no-ops and refusals", () => {
  it("reads through aliases and merge keys", () => {
    expect(run("ci.yml", { action: "get", selector: "jobs.build.runs-on" }).value).toBe(
      "ubuntu-latest",
    );
    expect(run("ci.yml", { action: "get", selector: "jobs.build.env" }).value).toEqual({
      NODE_VERSION: "20",
      FORCE_COLOR: 1,
    });
    expect(run("ci.yml", { action: "get", selector: "jobs.build.steps[-1].run" }).value).toBe(
      "npm run lint\nnpm test -- --coverage\n",
    );
  });

  it("refuses a change below an alias: it would change every user of the anchor", () => {
    const error = thrown(() =>
      run("ci.yml", { action: "set", selector: "jobs.build.env.CI", value: true }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("it lives inside the anchor &shared-env (line 12)");
  });

  it("refuses to remove an anchor that aliases still use", () => {
    const error = thrown(() => run("ci.yml", { action: "delete", selector: "x-job-defaults" }));
    expect(error.message).toContain(
      "`x-job-defaults` defines the anchor &job-defaults, which 2 aliases use (line 22, 39)",
    );
  });

  it("keeps a value's trailing comment on the first line when the new value spans lines", () => {
    const text = "env:\n  LEVEL: debug   # noisy\nlist:\n  - a  # first\n  - b\n";
    const scalar = run(
      "edge.yaml",
      { action: "set", selector: "env.LEVEL", value: "two\nlines" },
      text,
    );
    expect(scalar.text).toBe(
      "env:\n  LEVEL: |- # noisy\n    two\n    lines\nlist:\n  - a  # first\n  - b\n",
    );
    const item = run("edge.yaml", { action: "set", selector: "list[0]", value: "x\ny" }, text);
    expect(item.text).toBe(
      "env:\n  LEVEL: debug   # noisy\nlist:\n  - |- # first\n    x\n    y\n  - b\n",
    );
  });

  it("writes a key spelled << as a string, so a YAML 1.1 reader does not take it for a merge", () => {
    const text = "flow_map: {a: 1}\nblock:\n  x: 1\n";
    const read = (t: string, selector: string) => run("edge.yaml", { action: "get", selector }, t);
    const flow = run(
      "edge.yaml",
      { action: "set", selector: "flow_map.b", value: { "<<": 0 } },
      text,
    );
    expect(flow.text).toBe('flow_map: {a: 1, b: {!!str "<<": 0}}\nblock:\n  x: 1\n');
    expect(read(flow.text, "flow_map.b").value).toEqual({ "<<": 0 });
    const block = run(
      "edge.yaml",
      { action: "set", selector: "block.y", value: { "<<": [1] } },
      text,
    );
    expect(read(block.text, "block.y").value).toEqual({ "<<": [1] });
    const key = run("edge.yaml", { action: "set", selector: 'block."<<"', value: 2 }, text);
    expect(key.text).toBe('flow_map: {a: 1}\nblock:\n  x: 1\n  "<<": 2\n');
    expect(read(key.text, 'block."<<"').value).toBe(2);
  });

  it("does not remove a key that only a merge key provides", () => {
    const out = run("ci.yml", { action: "delete", selector: "jobs.build.runs-on" });
    expect(out).toMatchObject({ changed: false, removed: 0 });
    expect(out.warnings[0]).toContain('comes from the merge key "<<: *job-defaults" (line 22)');
  });

  it("delete of a missing key is a no-op", () => {
    expect(run("ci.yml", { action: "delete", selector: "jobs.lint" })).toMatchObject({
      changed: false,
      removed: 0,
      text: fixture("ci.yml"),
    });
  });

  it("refuses a key under a scalar and an index out of range", () => {
    const scalar = thrown(() => run("ci.yml", { action: "set", selector: "name.x", value: 1 }));
    expect(scalar.message).toContain('`name` is a string ("CI"), which has no keys or items');
    const range = thrown(() =>
      run("ci.yml", { action: "set", selector: "jobs.build.steps[9].run", value: "x" }),
    );
    expect(range.message).toContain("`jobs.build.steps` has 4 items, so [9] is out of range");
  });

  it("a document that does not parse is refused with line and column", () => {
    const error = thrown(() =>
      run("ci.yml", { action: "get", selector: "a" }, "a: 1\nb: [1\nc: 2\n"),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/does not parse as YAML at line 3, column 1/);
    expect(error.details).toMatchObject({ line: 3, column: 1 });
  });

  it("refuses duplicate keys and aliases without an anchor, with where they are", () => {
    const twice = thrown(() =>
      run("ci.yml", { action: "get", selector: "a" }, "a: 1\nb:\n  c: 1\n  c: 2\n"),
    );
    expect(twice.message).toContain(
      'does not parse as YAML at line 4, column 3: the key "c" appears twice',
    );
    const alias = thrown(() => run("ci.yml", { action: "get", selector: "a" }, "a: *nowhere\n"));
    expect(alias.message).toContain(
      "does not load as YAML: the alias *nowhere has no anchor before it",
    );
  });

  it("refuses to turn a map that merge keys pull in into something else", () => {
    const error = thrown(() =>
      run("ci.yml", { action: "set", selector: "x-job-defaults", value: "none" }),
    );
    expect(error.message).toContain(
      "`x-job-defaults` is the anchor &job-defaults, which merge keys pull into other maps (`<<: *job-defaults`, line 22, 39); it must stay a map",
    );
  });

  it("refuses files with several documents", () => {
    const error = thrown(() =>
      run("ci.yml", { action: "get", selector: "a" }, "a: 1\n---\nb: 2\n"),
    );
    expect(error.message).toContain("holds several YAML documents");
  });

  it("follows the file's indentation and list style", () => {
    const flat = "# top\nlist:\n- a\n- b\nmap:\n  k: v\n";
    const out = run("ci.yml", { action: "set", selector: "map.more", value: { x: [1, 2] } }, flat);
    expect(out.text).toBe(`${flat}  more:\n    x:\n    - 1\n    - 2\n`);
    const wide = "list:\n  - a\nmap:\n    k: v\n";
    const four = run("ci.yml", { action: "set", selector: "map.more", value: { x: [1] } }, wide);
    expect(four.text).toBe(`${wide}    more:\n        x:\n          - 1\n`);
  });

  it("removing the only item leaves an empty flow collection", () => {
    const out = run("ci.yml", { action: "delete", selector: "jobs.release.needs[0]" });
    expect(span(fixture("ci.yml"), out.text)).toEqual({
      removed: ["    needs: [build]"],
      added: ["    needs: []"],
    });
  });

  it("a comment above a key that stands alone goes with it", () => {
    const text = "a: 1\n\n# about b\nb: 2\n\nc: 3\n";
    expect(run("ci.yml", { action: "delete", selector: "b" }, text).text).toBe("a: 1\n\nc: 3\n");
  });

  it("the file's leading comment stays when its first key goes", () => {
    const text = "# header\nname: x\n\non: push\n";
    expect(run("ci.yml", { action: "delete", selector: "name" }, text).text).toBe(
      "# header\n\non: push\n",
    );
  });
});
