/**
 * Reads a SKILL.md for what the skill itself does that reaches outside the conversation (deploys, pushes,
 * publishes, deletes, sends, writes files): side-effect verbs used as instructions, side-effect commands, and
 * granted tools that write. A verb merely mentioned ("before merging", "`ready to merge`", "when the user asks
 * to deploy", "never push") is not an intent.
 */

/** One sign that a skill performs a side effect: what it is and where in SKILL.md's text it starts. */
export interface SideEffectIntent {
  /** What was found, for the message: a verb (`deploy`), a command (`git push`), a grant (`Write granted`). */
  what: string;
  /** Index in the text; the frontmatter's `allowed-tools` key (or 0) for a grant. */
  index: number;
}

/**
 * Side-effect verbs in the forms an instruction uses: the imperative (`Deploy the app`) and the third person a
 * description uses (`Deploys the app`). Gerunds and participles (`before merging`, `once deployed`) name an
 * event, not an action. Not followed by a hyphen (`drop-down`, `deploy-prod`) or by a noun they qualify
 * (`Release notes`, `merge request`).
 */
const VERB =
  /\b(deploy|publish|push|delete|send|release|upload|drop|merge|email|post|write)(?:e?s)?\b(?!-)(?!\s+(?:notes?|notifications?|requests?|conflicts?|candidates?|date|button|target|pipeline|step|script|keys?|menu|queue)\b)/gi;

/** `write` is a side effect only with a destination on disk (`Write the summary to NOTES.md`). */
const WRITE_DESTINATION = /\b(?:to|into)\s+(?:a\s+|the\s+)?(?:file|disk|[\w./-]+\.[a-z]{1,5}\b)|\bfiles?\b/i;

/** `post` is a side effect when it goes somewhere (`Post the summary to the channel`). */
const POST_DESTINATION = /\bto\b/i;

/** Commands with an effect outside the working copy, wherever they appear (prose, code span, code block, grant). */
const COMMAND =
  /\b(git\s+push|git\s+merge|gh\s+(?:pr\s+merge|release\s+create|repo\s+delete)|(?:npm|pnpm|yarn|cargo|gem|poetry)\s+publish|twine\s+upload|docker\s+push|kubectl\s+(?:apply|delete|rollout)|terraform\s+(?:apply|destroy)|helm\s+(?:install|upgrade|uninstall)|(?:fly|flyctl|vercel|netlify|firebase)\s+deploy|aws\s+s3\s+(?:cp|mv|rm|sync)|curl\s[^\n`]*?(?:-X\s*(?:POST|PUT|PATCH|DELETE)|--data\b)|drop\s+(?:table|database)|delete\s+from)\b/gi;

/** Built-in tools that change files. */
const WRITE_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** MCP tools whose name says they change something remote (`mcp__slack__send_message`). */
const MCP_WRITE = /^mcp__.*(?:send|post|create|delete|remove|write|update|push|publish|deploy|upload|merge)/i;

/** Frontmatter keys whose text the model reads as what the skill does. */
const PROSE_KEYS = /^(?:description|when_to_use|when-to-use)\s*:/;

/**
 * Where a clause starts: after punctuation (a full stop followed by a space: a sentence ends, a file name does
 * not), a paragraph break, a heading line (it ends its clause), or a list item, heading or quote marker.
 */
const CLAUSE_START =
  /(?:^|\n)#{1,6}\s[^\n]*\n|[.!?;:,](?=\s|$)|[()[\]"|]|\n\s*\n|\n[ \t]*(?:[-*+>]|\d+[.)]|#{1,6})\s/g;

/** Words a clause may open with before its imperative verb (`Then deploy`, `You must push`, `It sends`). */
const LEAD =
  /^(?:then|and|or|also|finally|first|next|now|afterwards|immediately|automatically|please|always|just|so|you|we|it|will|must|should|can|shall|may|need|needs|to|this skill|the skill)$/;

/** A clause that negates what follows (`Do not push`, `never deploy`, `without deleting`). */
const NEGATION =
  /\b(?:not|never|no|without|avoid|nor|cannot|can't|don't|dont|won't|instead of|rather than)\b/i;

/** Words that make a clause a condition or a report of someone else's wish, not an instruction. */
const SUBORDINATE =
  /\b(?:if|when|whenever|before|after|unless|while|once|until|whether|how|what|which|that|who|asks?|asked|wants?|wanted|requests?|ready|about|for|whose)\b/i;

/** Openers of a noun phrase: a clause that starts with one is a statement about a thing (`The push failed`). */
const DETERMINER = /^(?:the|a|an|this|that|these|those|its|their|our|your|my|there|here|he|she|they|i)$/;

/** The length of the frontmatter block (`---` to `---`, newline included); 0 when there is none. Pure. */
function frontmatterLength(text: string): number {
  const m = /^---[ \t]*\r?\n[\s\S]*?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m === null ? 0 : m[0].length;
}

/**
 * SKILL.md with what is not prose blanked out (same length, lines kept, so indices hold): fenced code blocks,
 * code spans and inline shell (commands, read by `COMMAND` instead), and the frontmatter but for the
 * description's lines (not a `name: deploy-prod`, nor a hook's command). Pure.
 */
function proseOf(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  const head = frontmatterLength(text);
  let keep = false;
  const frontmatter = text
    .slice(0, head)
    .split("\n")
    .map((line) => {
      if (/^\S/.test(line)) keep = PROSE_KEYS.test(line);
      return keep ? line : blank(line);
    });
  let fence = false;
  const body = text
    .slice(head)
    .split("\n")
    .map((line) => {
      if (/^\s*(?:```|~~~)/.test(line)) {
        fence = !fence;
        return blank(line);
      }
      return fence ? blank(line) : line.replace(/!?`[^`\n]*`/g, blank);
    });
  return `${frontmatter.join("\n")}${body.join("\n")}`;
}

/** The clause before `index`: from the last clause start to `index`, list and heading markers removed. */
function clauseBefore(text: string, index: number): string {
  const before = text.slice(0, index);
  let start = 0;
  for (const m of before.matchAll(CLAUSE_START)) start = m.index + m[0].length;
  return before
    .slice(start)
    .replace(/[#>*_|]/g, " ")
    .trim()
    .toLowerCase();
}

/** The rest of the clause after `index`, up to its end. */
function clauseAfter(text: string, index: number): string {
  const rest = text.slice(index);
  const end = rest.search(/[.!?;:](?=\s|$)|[()[\]]|\n\s*\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * True when a verb after `clause` (the clause up to it) is an instruction: it opens the clause after lead words
 * only (`Then deploy`), or continues an instruction (`Build and deploy`, `Run the script to deploy`) that is no
 * condition, wish or statement about a thing. Never when the clause negates it. Pure.
 */
function isInstruction(clause: string): boolean {
  if (NEGATION.test(clause)) return false;
  let rest = clause.replace(/\b(?:this|the) skill\b/g, "").trim();
  const words = rest === "" ? [] : rest.split(/\s+/);
  while (words.length > 0 && LEAD.test(words[0] ?? "")) words.shift();
  if (words.length === 0) return true;
  rest = words.join(" ");
  const last = words.at(-1) ?? "";
  return (
    ["and", "or", "then", "to"].includes(last) && !SUBORDINATE.test(rest) && !DETERMINER.test(words[0] ?? "")
  );
}

/**
 * Every side-effect intent in a SKILL.md (`text`, frontmatter included) with the skill's `allowed-tools`
 * (`allowedTools`): verbs used as instructions in its prose, side-effect commands anywhere but under a negation,
 * and grants of tools that write. In text order, grants at the `allowed-tools` line. Pure.
 */
export function sideEffectIntents(text: string, allowedTools: readonly string[]): SideEffectIntent[] {
  const prose = proseOf(text);
  const out: SideEffectIntent[] = [];
  for (const m of prose.matchAll(VERB)) {
    const verb = (m[1] ?? "").toLowerCase();
    if (!isInstruction(clauseBefore(prose, m.index))) continue;
    const after = clauseAfter(prose, m.index + m[0].length);
    if (verb === "write" && !WRITE_DESTINATION.test(after)) continue;
    if (verb === "post" && !POST_DESTINATION.test(after)) continue;
    out.push({ what: verb, index: m.index });
  }
  // The frontmatter's commands are hooks' or grants' (read from `allowedTools` below), not the skill's actions.
  const head = frontmatterLength(text);
  for (const m of text.matchAll(COMMAND)) {
    if (m.index < head || NEGATION.test(clauseBefore(text, m.index))) continue;
    out.push({
      what: (m[1] ?? "")
        .toLowerCase()
        .replace(/\s+/g, " ")
        .replace(/^curl\s.*/, "curl (write)"),
      index: m.index,
    });
  }
  const grantAt = Math.max(0, text.search(/^allowed[-_]tools\s*:/m));
  for (const grant of allowedTools) {
    const name = grant.split("(")[0]?.trim() ?? "";
    const inner = grant
      .slice(name.length)
      .replace(/^\(|\)$/g, "")
      .replace(/:/g, " ");
    const command = name === "Bash" ? inner.match(new RegExp(COMMAND.source, "i"))?.[1] : undefined;
    if (WRITE_TOOLS.has(name) || MCP_WRITE.test(name)) out.push({ what: `${name} granted`, index: grantAt });
    else if (command !== undefined)
      out.push({ what: `Bash(${command.replace(/\s+/g, " ")}) granted`, index: grantAt });
  }
  out.sort((a, b) => a.index - b.index);
  return out;
}
