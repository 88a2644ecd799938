/**
 * Notebooks: `read` renders cells, sources and outputs (an image output as
 * image content); the notebook tool changes cells through the write
 * pipeline, rewriting only the JSON of what changed, keeping the file valid
 * nbformat (checked with the nbformat package itself), and undo restores
 * the bytes exactly.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { identify } from "../../src/util/hash.js";
import { Project, rejection } from "../helpers/project.js";

/** Debian's python3-nbformat (.ci/run installs it): the reference validator. */
const PYTHON = "/usr/bin/python3";

/** Why nbformat cannot check notebooks here, or undefined when it can (under CI it must). */
function nbformatMissing(): string | undefined {
  if (spawnSync(PYTHON, ["-c", "import nbformat"]).status === 0) return undefined;
  const why = `${PYTHON} cannot import nbformat (Debian's python3-nbformat is not installed)`;
  if (process.env.CI)
    throw new Error(`${why}, and CI must run the nbformat checks (.ci/run installs it)`);
  return why;
}
const noNbformat = nbformatMissing();

function nbformatErrors(path: string): string {
  const script =
    "import sys, nbformat\nnb = nbformat.read(sys.argv[1], as_version=4)\nnbformat.validate(nb)\nprint('valid')";
  const r = spawnSync(PYTHON, ["-c", script, path], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : r.stderr.trim().split("\n").at(-1)!;
}

async function notebook(): Promise<{ text: string; png: Buffer }> {
  const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#0a0" } })
    .png()
    .toBuffer();
  const nb = {
    cells: [
      {
        cell_type: "markdown",
        id: "intro",
        metadata: {},
        source: ["# Sales\n", "Numbers by month."],
      },
      {
        cell_type: "code",
        execution_count: 1,
        id: "load",
        metadata: {},
        outputs: [
          { name: "stdout", output_type: "stream", text: ["loaded 3 rows\n"] },
          {
            data: { "text/plain": ["   month  total\n", "0  jan    10"] },
            execution_count: 1,
            metadata: {},
            output_type: "execute_result",
          },
        ],
        source: ["import pandas as pd\n", "df = pd.read_csv('sales.csv')\n", "df.head()"],
      },
      {
        cell_type: "code",
        execution_count: 2,
        id: "plot",
        metadata: {},
        outputs: [
          {
            data: { "image/png": png.toString("base64"), "text/plain": ["<Figure>"] },
            metadata: {},
            output_type: "display_data",
          },
        ],
        source: ["df.plot()"],
      },
      {
        cell_type: "code",
        execution_count: 3,
        id: "boom",
        metadata: {},
        outputs: [
          {
            ename: "ZeroDivisionError",
            evalue: "division by zero",
            output_type: "error",
            traceback: [
              "\u001b[0;31m---------------------------------------------------------------------------\u001b[0m",
              "\u001b[0;31mZeroDivisionError\u001b[0m                         Traceback (most recent call last)",
              "Cell \u001b[0;32mIn[3], line 1\u001b[0m\n\u001b[0;32m----> 1\u001b[0m \u001b[38;5;241m1\u001b[39m\u001b[38;5;241m/\u001b[39m\u001b[38;5;241m0\u001b[39m\n",
              "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero",
            ],
          },
        ],
        source: ["1/0"],
      },
    ],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  // As Jupyter writes it: one-space indent, a trailing newline.
  return { text: `${JSON.stringify(nb, null, 1)}\n`, png };
}

async function project() {
  const p = new Project();
  const { text, png } = await notebook();
  p.write("sales.ipynb", text);
  return { p, s: p.splice(), text, png };
}

describe("read of a notebook", () => {
  it("renders each cell's label, numbered source and outputs, with the notebook's tag", async () => {
    const { s, text, png } = await project();
    const { results } = await s.read({ targets: [{ path: "sales.ipynb" }] });
    const r = results[0]!;
    const { tag } = identify(Buffer.from(text));
    expect(r.file_hash).toBe(tag);
    expect(r.content).toBe(
      [
        `¶sales.ipynb#${tag} notebook, 4 cells (python)`,
        "[cell 1 · markdown · id intro]",
        "1| # Sales",
        "2| Numbers by month.",
        "[cell 2 · code · id load · ran [1]]",
        "1| import pandas as pd",
        "2| df = pd.read_csv('sales.csv')",
        "3| df.head()",
        "[output · stdout]",
        "loaded 3 rows",
        "[output · execute_result]",
        "   month  total",
        "0  jan    10",
        "[cell 3 · code · id plot · ran [2]]",
        "1| df.plot()",
        "[output · image/png 30×20: image 1 of this read]",
        "[cell 4 · code · id boom · ran [3]]",
        "1| 1/0",
        "[output · error ZeroDivisionError: division by zero]",
        "---------------------------------------------------------------------------",
        "ZeroDivisionError                         Traceback (most recent call last)",
        "Cell In[3], line 1",
        "----> 1 1/0",
        "ZeroDivisionError: division by zero",
      ].join("\n"),
    );
    expect(r.images).toEqual([
      { type: "image", mime_type: "image/png", data: png.toString("base64") },
    ]);
  });

  it("shows the JSON lines when a line_range is given", async () => {
    const { s } = await project();
    const { results } = await s.read({ targets: [{ path: "sales.ipynb", line_range: "1..2" }] });
    expect(results[0]!.content.split("\n").slice(1, 3)).toEqual(["1| {", '2|  "cells": [']);
  });

  it("refuses a notebook whose JSON is broken with a coded error", async () => {
    const p = new Project();
    p.write("bad.ipynb", '{"cells": [\n');
    const { results } = await p.splice().read({ targets: [{ path: "bad.ipynb" }] });
    expect(results[0]!.error?.code).toBe("corrupt");
    expect(results[0]!.error?.message).toMatch(
      /^bad\.ipynb cannot be read: the notebook is not valid JSON \(/,
    );
  });
});

describe("the notebook tool", () => {
  if (noNbformat) it.skip(`the nbformat checks: skipped, ${noNbformat}`, () => {});

  it.skipIf(noNbformat)(
    "replaces a cell's source, keeping every other byte, and the notebook stays valid",
    async () => {
      const { p, s, text } = await project();
      const r = (await s.call("notebook", {
        action: "replace_source",
        path: "sales.ipynb",
        cell: "load",
        source: "import polars as pl\ndf = pl.read_csv('sales.csv')",
      })) as { cell: string; changed: boolean };
      expect(r.changed).toBe(true);
      expect(r.cell).toBe("[cell 2 · code · id load · ran [1]]");
      const after = p.text("sales.ipynb");
      const nb = JSON.parse(text);
      nb.cells[1].source = ["import polars as pl\n", "df = pl.read_csv('sales.csv')"];
      // The same bytes Jupyter's own writer gives for this notebook: nothing else moved.
      expect(after).toBe(`${JSON.stringify(nb, null, 1)}\n`);
      expect(nbformatErrors(join(p.root, "sales.ipynb"))).toBe("valid");
    },
  );

  it("edits text inside one cell and refuses text that is missing or repeated", async () => {
    const { p, s } = await project();
    await s.call("notebook", {
      action: "edit_source",
      path: "sales.ipynb",
      cell: "2",
      old_text: "df.head()",
      new_text: "df.tail()",
    });
    expect(JSON.parse(p.text("sales.ipynb")).cells[1].source[2]).toBe("df.tail()");
    const missing = await rejection(
      s.call("notebook", {
        action: "edit_source",
        path: "sales.ipynb",
        cell: "2",
        old_text: "nope",
        new_text: "x",
      }),
    );
    expect(missing.code).toBe("not_found");
    const twice = await rejection(
      s.call("notebook", {
        action: "edit_source",
        path: "sales.ipynb",
        cell: "2",
        old_text: "df",
        new_text: "x",
      }),
    );
    expect(twice.code).toBe("ambiguous");
    const noCell = await rejection(
      s.call("notebook", { action: "delete", path: "sales.ipynb", cell: "gone" }),
    );
    expect(noCell.message).toBe(
      'sales.ipynb has no cell with id "gone". Its cell ids include intro, load, plot, boom. Read it to see its cells, or name a cell by number.',
    );
  });

  it.skipIf(noNbformat)(
    "inserts, retypes, clears and deletes cells, valid nbformat after each",
    async () => {
      const { p, s } = await project();
      const path = join(p.root, "sales.ipynb");
      const inserted = (await s.call("notebook", {
        action: "insert_before",
        path: "sales.ipynb",
        cell: "load",
        cell_type: "markdown",
        source: "## Load",
      })) as { cell: string };
      expect(inserted.cell).toMatch(/^\[cell 2 · markdown · id [0-9a-f]{8}\]$/);
      expect(nbformatErrors(path)).toBe("valid");
      await s.call("notebook", {
        action: "insert_after",
        path: "sales.ipynb",
        source: "print('end')",
      });
      let nb = JSON.parse(p.text("sales.ipynb"));
      expect(nb.cells.map((c: { cell_type: string }) => c.cell_type)).toEqual([
        "markdown",
        "markdown",
        "code",
        "code",
        "code",
        "code",
      ]);
      expect(nb.cells[5]).toMatchObject({
        execution_count: null,
        metadata: {},
        outputs: [],
        source: ["print('end')"],
      });
      expect(nbformatErrors(path)).toBe("valid");

      await s.call("notebook", {
        action: "set_type",
        path: "sales.ipynb",
        cell: "plot",
        cell_type: "markdown",
      });
      nb = JSON.parse(p.text("sales.ipynb"));
      expect(nb.cells[3]).not.toHaveProperty("outputs");
      expect(nb.cells[3]).not.toHaveProperty("execution_count");
      expect(nbformatErrors(path)).toBe("valid");

      await s.call("notebook", { action: "clear_outputs", path: "sales.ipynb" });
      nb = JSON.parse(p.text("sales.ipynb"));
      for (const cell of nb.cells.filter((c: { cell_type: string }) => c.cell_type === "code")) {
        expect([cell.outputs, cell.execution_count]).toEqual([[], null]);
      }
      expect(nbformatErrors(path)).toBe("valid");

      await s.call("notebook", { action: "delete", path: "sales.ipynb", cell: "1" });
      nb = JSON.parse(p.text("sales.ipynb"));
      expect(nb.cells[0].source).toEqual(["## Load"]);
      expect(nbformatErrors(path)).toBe("valid");
      expect(p.text("sales.ipynb").endsWith("}\n")).toBe(true);
    },
  );

  it("is undone exactly, byte for byte", async () => {
    const { p, s, text } = await project();
    await s.call("notebook", { action: "clear_outputs", path: "sales.ipynb" });
    await s.call("notebook", { action: "delete", path: "sales.ipynb", cell: "boom" });
    expect(p.text("sales.ipynb")).not.toBe(text);
    await s.undo({});
    await s.undo({});
    expect(p.text("sales.ipynb")).toBe(text);
  });

  it("keeps a CRLF notebook's line endings and a tab indent", async () => {
    const p = new Project();
    const nb = {
      cells: [
        { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: ["x"] },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 4,
    };
    const text = `${JSON.stringify(nb, null, "\t").replaceAll("\n", "\r\n")}\r\n`;
    p.write("tabs.ipynb", text);
    const s = p.splice();
    await s.call("notebook", {
      action: "insert_after",
      path: "tabs.ipynb",
      cell: "1",
      source: "y",
    });
    const after = p.text("tabs.ipynb");
    nb.cells.push({
      cell_type: "code",
      execution_count: null,
      metadata: {},
      outputs: [],
      source: ["y"],
    });
    // nbformat 4.4 has no cell ids: none is added.
    expect(after).toBe(`${JSON.stringify(nb, null, "\t").replaceAll("\n", "\r\n")}\r\n`);
  });

  it("refuses a notebook with invalid JSON with a coded error and writes nothing", async () => {
    const p = new Project();
    p.write("bad.ipynb", '{"cells": [}\n');
    const error = await rejection(
      p.splice().call("notebook", { action: "delete", path: "bad.ipynb", cell: "1" }),
    );
    expect(error.code).toBe("corrupt");
    expect(p.text("bad.ipynb")).toBe('{"cells": [}\n');
  });
});
