/** What a typed `/model`, `/new`, `/resume`, `/export` or `/name` line asks for. */
export type SessionCommand =
  | { kind: "model"; model?: string }
  | { kind: "new" }
  | { kind: "resume"; target?: string }
  | { kind: "export"; path?: string }
  | { kind: "name"; name?: string }
  | { kind: "usage"; text: string };

/** The interactive session commands, for `/` completion. */
export const SESSION_COMMAND_NAMES = ["model", "new", "resume", "export", "name"] as const;

const USAGE: Readonly<Record<(typeof SESSION_COMMAND_NAMES)[number], string>> = {
  model: "Usage: /model (show it), /model NAME (switch; the conversation goes on)",
  new: "Usage: /new (a new conversation)",
  resume: "Usage: /resume (list recent sessions), /resume ID|NAME",
  export: "Usage: /export [FILE] (the conversation as Markdown)",
  name: "Usage: /name NAME (name this session), /name (show it)",
};

const isCommandName = (word: string): word is (typeof SESSION_COMMAND_NAMES)[number] =>
  (SESSION_COMMAND_NAMES as readonly string[]).includes(word);

/**
 * Reads a typed line; undefined when it is not one of the session commands. These names win over a skill or
 * template of the same name, as `/compact`, `/reload` and `/skills` do. Pure.
 */
export function parseSessionCommand(line: string): SessionCommand | undefined {
  const trimmed = line.trim();
  const match = /^\/([a-z]+)(?:\s+(.*))?$/s.exec(trimmed);
  const verb = match?.[1];
  if (verb === undefined || !isCommandName(verb)) return undefined;
  const rest = match?.[2]?.trim() ?? "";
  switch (verb) {
    case "model":
      if (/\s/.test(rest)) return { kind: "usage", text: USAGE.model };
      return rest === "" ? { kind: "model" } : { kind: "model", model: rest };
    case "new":
      return rest === "" ? { kind: "new" } : { kind: "usage", text: USAGE.new };
    case "resume":
      return rest === "" ? { kind: "resume" } : { kind: "resume", target: rest };
    case "export":
      return rest === "" ? { kind: "export" } : { kind: "export", path: rest };
    case "name":
      if (rest.length > 100) return { kind: "usage", text: `${USAGE.name}: at most 100 characters` };
      return rest === "" ? { kind: "name" } : { kind: "name", name: rest };
  }
}
