// git-guard's rules: which shell commands must not run. Used by guard-bash.mjs; Node built-ins only.
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { basename } from "node:path";

const SYSTEM_DIRS = (
  "bin boot dev etc home lib lib64 opt proc root sbin srv sys usr var " +
  "Applications Library System Users Volumes private"
).split(" ");
const SEPARATORS = new Set([";", "\n", "|", "(", ")", "`"]);
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "time", "command", "exec", "nice", "xargs"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
const DEFAULT_PROTECTED = ["main", "master"];
const GIT_TIMEOUT_MS = 2_000;
const MAX_DEPTH = 4;

/** Splits a shell command into simple commands (arrays of words), honouring quotes and backslashes. */
export function simpleCommands(command) {
  const commands = [];
  let words = [];
  let word = "";
  let inWord = false;
  let quote = "";
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const next = command[i + 1];
    if (quote === "'") {
      if (c === "'") quote = "";
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = "";
      else if (c === "\\" && next !== undefined && '"\\$`'.includes(next)) {
        word += next;
        i += 1;
      } else word += c;
      continue;
    }
    if (c === "\\" && next !== undefined) {
      if (next !== "\n") word += next;
      inWord = inWord || next !== "\n";
      i += 1;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (SEPARATORS.has(c) || (c === "{" && next === " ")) {
      endCommand();
    } else if (c === "&") {
      if (command[i - 1] === ">" || next === ">") word += c;
      else endCommand();
    } else if (c === "$" && next === "(") {
      endCommand();
      i += 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

/** Drops `VAR=value` prefixes and wrappers such as `sudo -u x`, `env -i`, `nohup`, `time`. */
function unwrap(words) {
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i += 1;
    else if (WRAPPERS.has(basename(w))) {
      i += 1;
      while (i < words.length && words[i].startsWith("-")) {
        i += ["-u", "-g", "-n", "-C", "-h", "-p"].includes(words[i]) ? 2 : 1;
      }
    } else break;
  }
  return words.slice(i);
}

function normalizeTarget(target) {
  let t = target.replace(/\/+/g, "/");
  while (t.length > 1 && (t.endsWith("/") || t.endsWith("/*") || t.endsWith("/."))) {
    t = t.endsWith("/") ? t.slice(0, -1) : t.slice(0, -2);
  }
  return t === "" ? "/" : t;
}

function dangerousTargets() {
  const set = new Set(["/", "/*", "~", "$HOME", "${HOME}"]);
  for (const dir of SYSTEM_DIRS) set.add(`/${dir}`);
  const home = homedir();
  if (home) set.add(normalizeTarget(home));
  return set;
}

function checkRm(args) {
  let recursive = false;
  let noPreserveRoot = false;
  const targets = [];
  let options = true;
  for (const arg of args) {
    if (options && arg === "--") options = false;
    else if (options && arg.startsWith("--")) {
      if (arg === "--recursive") recursive = true;
      if (arg === "--no-preserve-root") noPreserveRoot = true;
    } else if (options && arg.startsWith("-") && arg.length > 1) {
      if (/[rR]/.test(arg)) recursive = true;
    } else targets.push(arg);
  }
  if (noPreserveRoot) return "it passes --no-preserve-root, which lets rm delete the whole file system";
  if (!recursive) return undefined;
  const dangerous = dangerousTargets();
  const hit = targets.find((t) => dangerous.has(normalizeTarget(t)));
  return hit === undefined
    ? undefined
    : `it would recursively delete ${hit}, a root, home or system directory`;
}

function protectedBranches() {
  const raw = process.env.GIT_GUARD_PROTECTED_BRANCHES;
  const list =
    raw === undefined
      ? DEFAULT_PROTECTED
      : raw
          .split(",")
          .map((b) => b.trim())
          .filter(Boolean);
  return new Set(list);
}

function currentBranch(cwd) {
  try {
    const out = execFileSync("git", ["symbolic-ref", "--short", "-q", "HEAD"], {
      cwd,
      timeout: GIT_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "ignore"],
      encoding: "utf8",
    });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

function checkGit(args, cwd) {
  let i = 0;
  let dir = cwd;
  while (i < args.length && args[i].startsWith("-")) {
    const value = args[i + 1];
    if (args[i] === "-C" && value !== undefined) dir = value.startsWith("/") ? value : `${dir}/${value}`;
    i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(args[i]) ? 2 : 1;
  }
  if (args[i] !== "push") return undefined;
  let force = false;
  let remove = false;
  let all = false;
  const positional = [];
  for (const arg of args.slice(i + 1)) {
    if (arg === "--force") force = true;
    else if (arg === "--delete") remove = true;
    else if (arg === "--all" || arg === "--mirror") all = true;
    else if (/^-[a-zA-Z]+$/.test(arg)) {
      if (arg.includes("f")) force = true;
      if (arg.includes("d")) remove = true;
    } else if (!arg.startsWith("-")) positional.push(arg);
  }
  const guarded = protectedBranches();
  const refspecs = positional.slice(1);
  if (refspecs.length === 0) {
    if (!force) return undefined;
    if (all) return "it would force-push every branch, rewriting shared history";
    const branch = currentBranch(dir);
    return branch !== undefined && guarded.has(branch)
      ? `it would force-push the current branch "${branch}", a protected branch, rewriting shared history`
      : undefined;
  }
  for (const spec of refspecs) {
    const plus = spec.startsWith("+");
    const body = plus ? spec.slice(1) : spec;
    const colon = body.indexOf(":");
    const src = colon === -1 ? body : body.slice(0, colon);
    let dst = colon === -1 ? body : body.slice(colon + 1);
    if (dst === "HEAD") dst = currentBranch(dir) ?? dst;
    dst = dst.replace(/^refs\/heads\//, "");
    if (!guarded.has(dst)) continue;
    if (remove || (colon !== -1 && src === ""))
      return `it would delete the protected branch "${dst}" on the remote`;
    if (force || plus)
      return `it would force-push to the protected branch "${dst}", rewriting shared history`;
  }
  return undefined;
}

/** The reason a command must not run, or undefined when it may. */
export function verdict(command, cwd, depth = 0) {
  for (const raw of simpleCommands(command)) {
    const words = unwrap(raw);
    if (words.length === 0) continue;
    const name = basename(words[0]);
    const args = words.slice(1);
    let reason;
    if (name === "rm") reason = checkRm(args);
    else if (name === "git") reason = checkGit(args, cwd);
    else if (SHELLS.has(name) && depth < MAX_DEPTH) {
      const script = args[args.indexOf("-c") + 1];
      if (args.includes("-c") && script !== undefined) reason = verdict(script, cwd, depth + 1);
    }
    if (reason !== undefined) return reason;
  }
  return undefined;
}
