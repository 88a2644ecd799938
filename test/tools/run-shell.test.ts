import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellFor } from "../../src/proc/process-group.js";

describe("run's shell", () => {
  it("is sh -c on POSIX, running the line as written", () => {
    const shell = shellFor('echo "a  b" | tr a z', "linux", {});
    expect(shell).toEqual({ file: "sh", args: ["-c", 'echo "a  b" | tr a z'], verbatim: false });
    expect(execFileSync(shell.file, shell.args, { encoding: "utf8" })).toBe("z  b\n");
  });

  it("is cmd.exe /d /s /c on Windows, the line quoted whole for /s, ComSpec first", () => {
    expect(shellFor('echo "hi" & exit 3', "win32", {})).toEqual({
      file: "cmd.exe",
      args: ["/d", "/s", "/c", '"echo "hi" & exit 3"'],
      verbatim: true,
    });
    expect(shellFor("dir", "win32", { ComSpec: "C:\\Windows\\system32\\cmd.exe" }).file).toBe(
      "C:\\Windows\\system32\\cmd.exe",
    );
  });
});
