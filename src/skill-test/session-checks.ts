import type { SessionCase } from "./cases.js";
import { textFailures } from "./text-checks.js";

/** One hook command run during a session: its event, the tool it fired for (tool events), its command. */
export interface HookRun {
  event: string;
  tool?: string;
  command: string;
}

/** What a session case's run left behind, reduced to what its expectations look at. */
export interface SessionObservation {
  /** Every `/v1/messages` request in order: the agent (undefined: main) and the body's strings joined. */
  requests: { agentId?: string | undefined; text: string }[];
  /** `skill_invoked` events in order. */
  skillCalls: { name: string; args: string }[];
  /** `tool_end` events in order: the tool, whether it failed, its text. */
  toolResults: { tool: string; isError: boolean; text: string }[];
  hooks: HookRun[];
  /** Each expected file's text after the run (undefined: missing), by the path the case gives. */
  files: ReadonlyMap<string, string | undefined>;
  /** The assistant's text in the last turn. */
  reply: string;
  /** `error` events of the session. */
  errors: string[];
  /** Scripted turns the session never asked for (repeat turns not counted). */
  unusedTurns: number;
}

/** A hook run as `Event` or `Event:Tool`, the form cases write. Pure. */
export function hookLabel(run: HookRun): string {
  return run.tool === undefined ? run.event : `${run.event}:${run.tool}`;
}

/** Every string inside a JSON value (object keys left out), in document order, joined by newlines. Pure. */
export function stringsIn(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const item of v) walk(item);
    else if (typeof v === "object" && v !== null) for (const item of Object.values(v)) walk(item);
  };
  walk(value);
  return out.join("\n");
}

function requestFailures(c: SessionCase, seen: SessionObservation): string[] {
  const failures: string[] = [];
  const main = seen.requests.filter((r) => r.agentId === undefined);
  for (const expected of c.expect.requests ?? []) {
    if (expected.request !== undefined) {
      const request = main[expected.request];
      if (request === undefined) {
        failures.push(`no request #${expected.request} (the main agent made ${main.length})`);
      } else failures.push(...textFailures(`request #${expected.request}`, request.text, expected));
      continue;
    }
    if (!seen.requests.some((r) => textFailures("", r.text, expected).length === 0)) {
      const all = seen.requests.map((r) => r.text).join("\n");
      const why = textFailures("no request matches:", all, expected);
      failures.push(why.length > 0 ? why.join("; ") : "no single request meets every check of this entry");
    }
  }
  return failures;
}

function skillCallFailures(c: SessionCase, seen: SessionObservation): string[] {
  const wanted = c.expect.skill_calls;
  if (wanted === undefined) return [];
  let at = 0;
  for (const call of wanted) {
    const found = seen.skillCalls.findIndex(
      (s, i) => i >= at && s.name === call.skill && (call.args === undefined || s.args === call.args),
    );
    if (found === -1) {
      const made = seen.skillCalls.map((s) => `${s.name}(${JSON.stringify(s.args)})`).join(", ") || "none";
      const args = call.args === undefined ? "" : ` with args ${JSON.stringify(call.args)}`;
      return [`no Skill call of ${call.skill}${args} in order (calls made: ${made})`];
    }
    at = found + 1;
  }
  return [];
}

function toolResultFailures(c: SessionCase, seen: SessionObservation): string[] {
  const failures: string[] = [];
  for (const expected of c.expect.tool_results ?? []) {
    const results = seen.toolResults.filter((r) => r.tool === expected.tool);
    if (results.length === 0) {
      failures.push(`no ${expected.tool} result`);
      continue;
    }
    const check = (r: (typeof results)[number]) => [
      ...(expected.is_error === undefined || r.isError === expected.is_error
        ? []
        : [`${expected.tool} result is${r.isError ? "" : " not"} an error`]),
      ...textFailures(`${expected.tool} result`, r.text, expected),
    ];
    if (results.some((r) => check(r).length === 0)) continue;
    const last = results.at(-1);
    failures.push(...(last === undefined ? [] : check(last)));
  }
  return failures;
}

function fileFailures(c: SessionCase, seen: SessionObservation): string[] {
  const failures: string[] = [];
  for (const expected of c.expect.files ?? []) {
    const text = seen.files.get(expected.path);
    if (text === undefined) {
      if (expected.exists) failures.push(`file ${expected.path} was not written`);
      continue;
    }
    if (!expected.exists) {
      failures.push(`file ${expected.path} exists`);
      continue;
    }
    if (expected.exact !== undefined && text !== expected.exact) {
      failures.push(`file ${expected.path} differs from \`exact\`: ${JSON.stringify(text.slice(0, 200))}`);
    }
    failures.push(...textFailures(`file ${expected.path}`, text, expected));
  }
  return failures;
}

function hookFailures(c: SessionCase, seen: SessionObservation): string[] {
  const wanted = c.expect.hooks;
  if (wanted === undefined) return [];
  const fired = seen.hooks.map(hookLabel);
  const same =
    wanted.length === fired.length &&
    wanted.every((w, i) => {
      const f = fired[i];
      return f !== undefined && (w === f || (!w.includes(":") && f.startsWith(`${w}:`)));
    });
  return same ? [] : [`hooks fired [${fired.join(", ")}], expected [${wanted.join(", ")}]`];
}

/**
 * Every unmet expectation of a session case, one message each, plus the session's errors and scripted turns it
 * never reached (a script that was not played out means the conversation went another way). Pure.
 */
export function sessionFailures(c: SessionCase, seen: SessionObservation): string[] {
  return [
    ...seen.errors.map((e) => `session error: ${e}`),
    ...(seen.unusedTurns > 0 ? [`${seen.unusedTurns} scripted turn(s) were never requested`] : []),
    ...requestFailures(c, seen),
    ...skillCallFailures(c, seen),
    ...toolResultFailures(c, seen),
    ...fileFailures(c, seen),
    ...hookFailures(c, seen),
    ...(c.expect.reply === undefined ? [] : textFailures("reply", seen.reply, c.expect.reply)),
  ];
}

/** A tool result as the summary shows it: the tool, and for an error the start of its text. Pure. */
function toolShown(r: SessionObservation["toolResults"][number]): string {
  if (!r.isError) return r.tool;
  const text = r.text.replaceAll(/\s+/g, " ").trim();
  return `${r.tool} (error: ${text.length > 120 ? `${text.slice(0, 120)}…` : text})`;
}

/** A short account of a session run for the report: hooks fired, skills and tools called. Pure. */
export function sessionSummary(seen: SessionObservation): string {
  const calls = seen.skillCalls.map((s) => (s.args === "" ? s.name : `${s.name} ${s.args}`));
  return [
    `requests: ${seen.requests.length}`,
    `skill calls: ${calls.join(", ") || "none"}`,
    `tools: ${seen.toolResults.map(toolShown).join(", ") || "none"}`,
    `hooks: ${seen.hooks.map(hookLabel).join(", ") || "none"}`,
  ].join("\n");
}
