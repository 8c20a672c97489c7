import { describe, expect, it } from "vitest";
import { type CommandWords, commandWords } from "../../src/permissions/command-words.js";

const out = (op: string, target: string, fd = false) => ({ op, target, output: true, fd });
const inp = (op: string, target: string, fd = false) => ({ op, target, output: false, fd });

describe("commandWords", () => {
  it.each<[string, Partial<CommandWords>]>([
    ["echo hi", { words: ["echo", "hi"], redirects: [] }],
    ["echo 'a b' \"c d\" e\\ f", { words: ["echo", "a b", "c d", "e f"] }],
    ["echo x > out.txt", { words: ["echo", "x"], redirects: [out(">", "out.txt")] }],
    ["echo x>out.txt", { words: ["echo", "x"], redirects: [out(">", "out.txt")] }],
    ["echo x >> 'my log'", { words: ["echo", "x"], redirects: [out(">>", "my log")] }],
    ["echo x >| f", { words: ["echo", "x"], redirects: [out(">|", "f")] }],
    ["cmd 2> err.txt", { words: ["cmd"], redirects: [out("2>", "err.txt")] }],
    ["cmd 2>&1", { words: ["cmd"], redirects: [out("2>&", "1", true)] }],
    ["cmd >&2", { words: ["cmd"], redirects: [out(">&", "2", true)] }],
    ["cmd >&-", { words: ["cmd"], redirects: [out(">&", "-", true)] }],
    ["cmd >&file", { words: ["cmd"], redirects: [out(">&", "file")] }],
    ["cmd &> all.txt", { words: ["cmd"], redirects: [out("&>", "all.txt")] }],
    ["cmd &>> all.txt", { words: ["cmd"], redirects: [out("&>>", "all.txt")] }],
    ["sort < in.txt", { words: ["sort"], redirects: [inp("<", "in.txt")] }],
    ["echo '>' \">\" \\>", { words: ["echo", ">", ">", ">"], redirects: [] }],
    ["cat <<EOF", { words: ["cat"], heredoc: true }],
    ["cat <<-'EOF'", { words: ["cat"], heredoc: true }],
    ["cat <<< hello", { words: ["cat"], heredoc: true }],
    ["echo $HOME \"$X\" '$Y'", { words: ["echo", "$HOME", "$X", "$Y"], dynamic: [false, true, true, false] }],
    ["echo 'unclosed", { words: ["echo", "unclosed"] }],
  ])("%j", (command, want) => {
    expect(commandWords(command)).toMatchObject(want);
  });
});
