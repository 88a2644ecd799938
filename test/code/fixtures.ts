/**
 * One small program per language, and what the syntax layer must find in
 * it. Line numbers are 1-based and refer to `source`.
 */
export interface LanguageFixture {
  file: string;
  source: string;
  /** A top-level definition and its lines. */
  top: { symbol: string; lines: [number, number]; kind: string };
  /** A member, named the language's way, and its lines. */
  member: { symbol: string; lines: [number, number] };
  /** A name defined more than once: the line spans of each definition. */
  duplicated: { symbol: string; lines: [number, number][] };
  /** A line inside a method, and the method's lines. */
  lineInBlock: { line: number; block: [number, number] };
  /** `delete block N` removes these lines. */
  deleteBlock: { line: number; removes: [number, number] };
  /** An ast_edit op with a `$$$` capture, and a line of the result. */
  astEdit: { pat: string; out: string; expect: string; matches: number };
  /** Renaming `from` to `to`: lines that must change, and text that must stay. */
  rename: { from: string; to: string; expect: string[]; keep: string[] };
  /** A text edit that breaks the syntax, and the error line the warning names. */
  broken: { oldText: string; newText: string };
}

export const FIXTURES: Record<string, LanguageFixture> = {
  typescript: {
    file: "src/greet.ts",
    source: `import { x } from "./x";

/** Says hello. */
export function greet(name: string): string {
  return "greet " + name; // greet
}

export class Greeter {
  greeting = "hi";
  greet(name: string): string {
    const greetLonger = name.length + x;
    log(this.greeting, name, greetLonger);
    return name;
  }
}

function log(a: string, b: string, c: number): void;
function log(...args: unknown[]): void {
  console.log("log:", ...args);
}
`,
    top: { symbol: "Greeter", lines: [8, 15], kind: "class" },
    member: { symbol: "Greeter.greet", lines: [10, 14] },
    duplicated: {
      symbol: "log",
      lines: [
        [17, 17],
        [18, 20],
      ],
    },
    lineInBlock: { line: 12, block: [10, 14] },
    deleteBlock: { line: 17, removes: [17, 17] },
    astEdit: {
      pat: "console.log($$$ARGS)",
      out: "logger.info($$$ARGS)",
      expect: '  logger.info("log:", ...args);',
      matches: 1,
    },
    rename: {
      from: "greet",
      to: "welcome",
      expect: [
        "export function welcome(name: string): string {",
        "  welcome(name: string): string {",
      ],
      keep: ['return "greet " + name; // greet', "greetLonger"],
    },
    broken: { oldText: "    return name;\n  }\n", newText: "    return name;\n" },
  },
  tsx: {
    file: "src/panel.tsx",
    source: `import React from "react";

export function Button(props: { label: string }) {
  return <button title="Button">{props.label}</button>;
}

export class Panel extends React.Component {
  render() {
    const ButtonLabel = "x";
    return <div>{ButtonLabel}<Button label="ok" /></div>;
  }
  update() {
    console.log("update", this.props);
  }
}

class Card {
  render() {
    return <p>card</p>;
  }
}
`,
    top: { symbol: "Button", lines: [3, 5], kind: "function" },
    member: { symbol: "Panel.update", lines: [12, 14] },
    duplicated: {
      symbol: "render",
      lines: [
        [8, 11],
        [18, 20],
      ],
    },
    lineInBlock: { line: 9, block: [8, 11] },
    deleteBlock: { line: 12, removes: [12, 14] },
    astEdit: {
      pat: "console.log($$$A)",
      out: "debug($$$A)",
      expect: '    debug("update", this.props);',
      matches: 1,
    },
    rename: {
      from: "Button",
      to: "Btn",
      expect: ["export function Btn(props: { label: string }) {", '<Btn label="ok" />'],
      keep: ['title="Button"', "ButtonLabel"],
    },
    broken: { oldText: "    return <p>card</p>;\n  }\n", newText: "    return <p>card</p>;\n" },
  },
  javascript: {
    file: "lib/parse.js",
    source: `const path = require("path");

function parse(text) {
  return text.split("\\n"); // parse lines
}

class Parser {
  parse(input) {
    const parsed = parse(input);
    return parsed;
  }
  static create() {
    return new Parser();
  }
}

module.exports = { parse, Parser, sep: path.sep };
`,
    top: { symbol: "Parser", lines: [7, 15], kind: "class" },
    member: { symbol: "Parser.create", lines: [12, 14] },
    duplicated: {
      symbol: "parse",
      lines: [
        [3, 5],
        [8, 11],
      ],
    },
    lineInBlock: { line: 10, block: [8, 11] },
    deleteBlock: { line: 12, removes: [12, 14] },
    astEdit: {
      pat: "$T.split($$$A)",
      out: "$T.split($$$A).filter(Boolean)",
      expect: '  return text.split("\\n").filter(Boolean); // parse lines',
      matches: 1,
    },
    rename: {
      from: "parse",
      to: "tokenize",
      expect: ["function tokenize(text) {", "    const parsed = tokenize(input);"],
      keep: ["// parse lines", "const parsed", "return parsed;"],
    },
    broken: { oldText: "    return parsed;\n", newText: "    return parsed(;\n" },
  },
  python: {
    file: "app/store.py",
    source: `import os

MAX_SIZE = 10


def load(path):
    """load a file"""
    return open(path).read()  # load


class Store:
    def load(self, key):
        loaded = load(key)
        return loaded

    def save(self, key, value):
        print("save", key, value, os.sep)


def load_all(paths):
    return [load(p) for p in paths]


def load(path, mode):
    return None
`,
    top: { symbol: "MAX_SIZE", lines: [3, 3], kind: "constant" },
    member: { symbol: "Store.save", lines: [16, 17] },
    duplicated: {
      symbol: "load",
      lines: [
        [6, 8],
        [12, 14],
        [24, 25],
      ],
    },
    lineInBlock: { line: 13, block: [12, 14] },
    deleteBlock: { line: 16, removes: [16, 17] },
    astEdit: {
      pat: "print($$$A)",
      out: "logger.info($$$A)",
      expect: '        logger.info("save", key, value, os.sep)',
      matches: 1,
    },
    rename: {
      from: "load",
      to: "fetch",
      expect: [
        "def fetch(path):",
        "        loaded = fetch(key)",
        "    return [fetch(p) for p in paths]",
      ],
      keep: ['"""load a file"""', "# load", "def load_all(paths):", "loaded = "],
    },
    broken: { oldText: "    return None\n", newText: "    return (None\n" },
  },
  rust: {
    file: "src/point.rs",
    source: `use std::fmt;

pub struct Point {
    x: i32,
}

impl Point {
    pub fn new(x: i32) -> Self {
        Point { x }
    }

    pub fn norm(&self) -> i32 {
        println!("norm {}", self.x);
        self.x.abs()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Point({})", self.x)
    }
}

// norm of a point
pub fn norm(p: &Point) -> i32 {
    let normalized = p.norm();
    normalized
}
`,
    top: { symbol: "Point", lines: [3, 5], kind: "struct" },
    member: { symbol: "Point::new", lines: [8, 10] },
    duplicated: {
      symbol: "norm",
      lines: [
        [12, 15],
        [25, 28],
      ],
    },
    lineInBlock: { line: 13, block: [12, 15] },
    deleteBlock: { line: 8, removes: [8, 10] },
    astEdit: {
      pat: "println!($$$A)",
      out: "log::info!($$$A)",
      expect: '        log::info!("norm {}", self.x);',
      matches: 1,
    },
    rename: {
      from: "norm",
      to: "length",
      expect: [
        "    pub fn length(&self) -> i32 {",
        "pub fn length(p: &Point) -> i32 {",
        "    let normalized = p.length();",
      ],
      keep: ['println!("norm {}", self.x);', "// norm of a point", "    normalized"],
    },
    broken: { oldText: "        self.x.abs()\n    }\n", newText: "        self.x.abs()\n" },
  },
  go: {
    file: "server/server.go",
    source: `package main

import "fmt"

type Server struct {
	name string
}

// Start begins serving
func (s *Server) Start(port int) error {
	fmt.Println("Start", s.name, port)
	return nil
}

func (s *Server) Stop() {
	s.name = ""
}

func Start(s *Server) error {
	return s.Start(StartPort)
}

const StartPort = 80
`,
    top: { symbol: "StartPort", lines: [23, 23], kind: "constant" },
    member: { symbol: "Server.Stop", lines: [15, 17] },
    duplicated: {
      symbol: "Start",
      lines: [
        [10, 13],
        [19, 21],
      ],
    },
    lineInBlock: { line: 11, block: [10, 13] },
    deleteBlock: { line: 15, removes: [15, 17] },
    astEdit: {
      pat: "fmt.Println($$$A)",
      out: "log.Println($$$A)",
      expect: '\tlog.Println("Start", s.name, port)',
      matches: 1,
    },
    rename: {
      from: "Start",
      to: "Run",
      expect: [
        "func (s *Server) Run(port int) error {",
        "func Run(s *Server) error {",
        "\treturn s.Run(StartPort)",
      ],
      keep: ["// Start begins serving", '"Start"', "const StartPort = 80"],
    },
    broken: { oldText: "\treturn nil\n}\n", newText: "\treturn nil\n" },
  },
};

/** The lines of a span, 1-based inclusive. */
export function span(source: string, [start, end]: [number, number]): string[] {
  return source.split("\n").slice(start - 1, end);
}
