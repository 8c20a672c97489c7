import { describe, expect, it } from "vitest";
import {
  type CommandDirs,
  isReadOnlyCommand,
  type OutsideWrite,
  outsideWrites,
} from "../../src/permissions/command-effects.js";

const DIRS: CommandDirs = { cwd: "/repo", additional: ["/extra"], home: "/home/u" };

describe("isReadOnlyCommand (SPEC §14.8)", () => {
  it.each<[string, boolean]>([
    ["echo hi", true],
    ["printf '%s' x", true],
    ["pwd", true],
    ["true", true],
    ["ls -la /", true],
    ["cat", true],
    ["cat README.md ./src/a.ts -n", true],
    ["cat /extra/notes.md", true],
    ["cat *.md", true],
    ["cat /etc/passwd", false],
    ["cat ../x", false],
    ["cat ~/secret", false],
    ["cat $F", false],
    ["cat {a,/etc/passwd}", false],
    ["cat src/*/../../../etc/passwd", false],
    ["cat < README.md", true],
    ["cat < /etc/passwd", false],
    ["git status", true],
    ["git log -p", true],
    ["git diff --stat", true],
    ["git diff --output=x", false],
    ["git -c core.pager=x log", false],
    ["git push", false],
    ["git", false],
    ["echo x > f", false],
    ["echo x >> /dev/null", true],
    ["echo x 2>&1", true],
    ["echo x 2> err", false],
    ["X=1 echo hi", false],
    ["$CMD hi", false],
    ["touch a", false],
    ["rm -rf /", false],
    ["tee f", false],
    ["false", false],
    ["", false],
  ])("%j → %s", (command, want) => {
    expect(isReadOnlyCommand(command, DIRS)).toBe(want);
  });
});

describe("outsideWrites (issue 16.6)", () => {
  it.each<[string, OutsideWrite[]]>([
    ["echo hi", []],
    ["echo x > f.txt", []],
    ["echo x > /repo/sub/f.txt", []],
    ["echo x > /extra/f.txt", []],
    ["echo x > /dev/null 2>&1", []],
    ["echo x > /elsewhere/file", [{ command: "echo", path: "/elsewhere/file" }]],
    ["echo x >> ../f", [{ command: "echo", path: "/f" }]],
    ["echo x 2> /tmp/e", [{ command: "echo", path: "/tmp/e" }]],
    ["echo x &> /tmp/a", [{ command: "echo", path: "/tmp/a" }]],
    ["echo x >& /tmp/a", [{ command: "echo", path: "/tmp/a" }]],
    ["echo x > ~/f", [{ command: "echo", path: "/home/u/f" }]],
    ["echo x > $OUT", [{ command: "echo", path: "$OUT" }]],
    ['echo x > "$D/f"', [{ command: "echo", path: "$D/f" }]],
    ["> /tmp/empty", [{ command: ">", path: "/tmp/empty" }]],
    [
      "tee /tmp/a local.txt -a /etc/b",
      [
        { command: "tee", path: "/tmp/a" },
        { command: "tee", path: "/etc/b" },
      ],
    ],
    ["tee -", []],
    ["sudo -E tee /etc/x", [{ command: "tee", path: "/etc/x" }]],
    ["env A=1 nice -n 5 tee /etc/x", [{ command: "tee", path: "/etc/x" }]],
    ["xargs tee /etc/x", [{ command: "tee", path: "/etc/x" }]],
    ["timeout 5s tee /etc/x", [{ command: "tee", path: "/etc/x" }]],
    ["echo tee /etc/x", []],
    ["tee {a,/etc/x}", [{ command: "tee", path: "{a,/etc/x}" }]],
    ["echo x > ~root/f", [{ command: "echo", path: "~root/f" }]],
    ["X=1 tee /tmp/a", [{ command: "tee", path: "/tmp/a" }]],
    ["sort < /etc/passwd", []],
    ["echo '> /tmp/x'", []],
  ])("%j", (command, want) => {
    expect(outsideWrites(command, DIRS)).toEqual(want);
  });

  it("a ~ path without a home dir cannot be resolved and counts as outside", () => {
    expect(outsideWrites("echo x > ~/f", { cwd: "/repo" })).toEqual([{ command: "echo", path: "~/f" }]);
  });
});
