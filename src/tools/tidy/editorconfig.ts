/**
 * .editorconfig properties for a file, read through the Workspace from the
 * file's folder up to the project root (never above it: a config outside the
 * project is not the project's style), with the `editorconfig` package doing
 * the section matching.
 */
import { posix } from "node:path";
import { type ECFile, type Props, parseFromFilesSync } from "editorconfig";
import type { TidyOptions } from "../../text/tidy.js";
import { isInside } from "../../util/paths.js";
import type { ToolContext } from "../define.js";

const CONFIG = ".editorconfig";

export class EditorConfigs {
  readonly #files = new Map<string, Promise<ECFile | undefined>>();

  constructor(private readonly context: ToolContext) {}

  #load(dir: string): Promise<ECFile | undefined> {
    let pending = this.#files.get(dir);
    if (!pending) {
      const name = posix.join(dir, CONFIG);
      pending = this.context.workspace
        .readFile(name)
        .then((bytes) => ({ name, contents: Buffer.from(bytes) }))
        .catch(() => undefined);
      this.#files.set(dir, pending);
    }
    return pending;
  }

  /** Properties for the file at absolute path `real`, inside the root. */
  /** What tidy should do to `path`, per the .editorconfig files above it. */
  async optionsFor(path: string, markdown: boolean): Promise<TidyOptions> {
    return tidyOptions(await this.propsFor(path), markdown);
  }

  async propsFor(real: string): Promise<Props> {
    const root = this.context.guard.root;
    const files: ECFile[] = [];
    let dir = posix.dirname(real);
    for (;;) {
      const file = await this.#load(dir);
      if (file) files.push(file);
      if (dir === root || !isInside(root, dir, posix.sep)) break;
      dir = posix.dirname(dir);
    }
    if (files.length === 0) return {};
    return parseFromFilesSync(real, files, { root });
  }
}

const positive = (v: unknown) => (typeof v === "number" && v > 0 ? v : undefined);

/** Tidy options from .editorconfig properties (what is unset keeps the defaults). */
function tidyOptions(props: Props, markdown: boolean): TidyOptions {
  const options: TidyOptions = { keepHardBreaks: markdown };
  if (props.trim_trailing_whitespace === false) options.trimTrailingWhitespace = false;
  if (props.insert_final_newline === false) options.insertFinalNewline = false;
  if (props.end_of_line === "lf") options.endOfLine = "\n";
  if (props.end_of_line === "crlf") options.endOfLine = "\r\n";
  const style =
    props.indent_style === "space" ? "space" : props.indent_style === "tab" ? "tab" : undefined;
  if (style) {
    const size = positive(props.indent_size) ?? positive(props.tab_width) ?? 4;
    const tabWidth = positive(props.tab_width) ?? size;
    options.indent = { style, size, tabWidth };
  }
  return options;
}
