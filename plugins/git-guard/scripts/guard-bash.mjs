#!/usr/bin/env node
// git-guard PreToolUse hook for the Bash tool. Reads the hook event (JSON) on stdin and exits 2 with the
// reason on stderr when the command would wipe a root, home or system directory, or force-push to or delete
// a protected branch (see verdict.mjs). Anything else exits 0 without output. Node built-ins only.
import { verdict } from "./verdict.mjs";

let text = "";
for await (const chunk of process.stdin) text += chunk;
let event;
try {
  event = JSON.parse(text);
} catch {
  process.stderr.write("git-guard: hook input is not JSON; command not checked\n");
  process.exit(1);
}
const command = event?.tool_input?.command;
if (event?.tool_name !== "Bash" || typeof command !== "string") process.exit(0);
const reason = verdict(command, typeof event.cwd === "string" ? event.cwd : process.cwd());
if (reason === undefined) process.exit(0);
process.stderr.write(
  `git-guard blocked this command: ${reason}.\n  command: ${command}\n` +
    "Do not retry it in another form. If it is really intended, ask the user to run it themselves.\n",
);
process.exit(2);
