import type { ModelMessage } from "../../agent/model-types.js";
import type { InvokedSkill } from "../../skill-tool/invoked-skill.js";
import { planReattachment, renderReattachedSkill } from "../compaction/reattach.js";
import { estimateTokens } from "../compaction/tokens.js";
import { dueExpansions, expiredSkillStub, type LiveExpansion, type SkillContextOptions } from "./expiry.js";
import { type ExpiredSpan, stubbedMessages } from "./stubbed-messages.js";

/** What the main agent was sent for one inline invocation (see `invocationText`). */
export interface SentExpansion {
  /** The skill's own name. */
  name: string;
  /** Its `ttl-turns`, else the session's `expireAfterUserTurns`. */
  ttl: number | undefined;
  /** A re-invocation note sent as its own block before `text`. */
  note?: string;
  /** The text block: the expansion, or the already-loaded marker. */
  text: string;
}

/**
 * The main conversation's expiring skill context (issue 31 item 1): which inline expansions are live, where
 * they sit, and which were replaced by a stub. Only the requests change; the conversation and the transcript
 * keep every expansion. Expiry happens only in {@link SkillContext.beginTurn}, so the messages of each request
 * begin with those of the one before it except at the first request of a turn something expired in (one prefix
 * break per batch), and a stub, once sent, stays.
 */
export interface SkillContext {
  /** Notes an inline invocation of the main agent; it is tracked once its blocks are found in the conversation. */
  sent(expansion: SentExpansion): void;
  /**
   * A user turn begins on `messages` (the conversation so far): counts it and expires what is due (see
   * `dueExpansions`); returns the names of the skills that expired.
   */
  beginTurn(messages: readonly ModelMessage[]): string[];
  /** `messages` as the model is sent them: expired expansions stubbed. Pure but for finding new expansions. */
  view(messages: readonly ModelMessage[]): ModelMessage[];
  /** True when skill `name`'s expansion expired and it was not invoked since: compaction does not re-attach it. */
  expired(name: string): boolean;
  /**
   * The conversation was compacted into `messages`, re-attaching `reattached` (the invocations compaction was
   * given): positions are forgotten, and each live skill's re-attached section keeps its TTL.
   */
  compacted(messages: readonly ModelMessage[], reattached: readonly InvokedSkill[]): void;
}

/** What a {@link SkillContext} tells its session. */
export interface SkillContextDeps {
  options: SkillContextOptions;
  /** Called with each skill whose expansion expired (its next invocation must send the full body again). */
  onExpired: (name: string) => void;
}

type Position = { message: number; block: number; part?: string; drop?: true };
type Tracked = LiveExpansion & { positions: Position[] };
type Pending = SentExpansion & { turn: number; notePosition?: Position };

/** A session's {@link SkillContext}. */
export function createSkillContext(deps: SkillContextDeps): SkillContext {
  const { options } = deps;
  let turn = 0;
  let nextId = 1;
  let scanned = 0;
  let pending: Pending[] = [];
  const live = new Map<string, Tracked>();
  const expiredNames = new Set<string>();
  let spans: ExpiredSpan[] = [];

  const track = (p: Pending, positions: Position[]) => {
    const tokens = estimateTokens(p.text);
    const current = live.get(p.name);
    if (current !== undefined) {
      current.positions.push(...positions);
      current.lastTurn = p.turn;
      current.tokens += tokens;
      if (p.ttl !== undefined) current.ttl = p.ttl;
      return;
    }
    expiredNames.delete(p.name);
    live.set(p.name, { id: nextId++, name: p.name, lastTurn: p.turn, ttl: p.ttl, tokens, positions });
  };
  const scan = (messages: readonly ModelMessage[]) => {
    if (scanned > messages.length) scanned = messages.length;
    for (let m = scanned; m < messages.length && pending.length > 0; m++) {
      const message = messages[m];
      if (message === undefined || message.role !== "user" || typeof message.content === "string") continue;
      message.content.forEach((block, b) => {
        if (block.type !== "text") return;
        const note = pending.find((p) => p.note === block.text && p.notePosition === undefined);
        if (note !== undefined) {
          note.notePosition = { message: m, block: b, drop: true };
          return;
        }
        const index = pending.findIndex((p) => p.text === block.text);
        const found = pending[index];
        if (found === undefined) return;
        pending.splice(index, 1);
        track(found, [
          ...(found.notePosition === undefined ? [] : [found.notePosition]),
          { message: m, block: b },
        ]);
      });
    }
    scanned = messages.length;
  };
  const expire = (tracked: Tracked) => {
    live.delete(tracked.name);
    expiredNames.add(tracked.name);
    const stub = expiredSkillStub(tracked.name);
    for (const p of tracked.positions) {
      spans.push(
        p.drop === true
          ? { kind: "drop", message: p.message, block: p.block }
          : {
              kind: "stub",
              message: p.message,
              block: p.block,
              stub,
              ...(p.part === undefined ? {} : { part: p.part }),
            },
      );
    }
    deps.onExpired(tracked.name);
  };

  return {
    sent(expansion) {
      if (expansion.ttl === undefined && options.maxTokens === undefined) return;
      pending.push({ ...expansion, turn });
    },
    beginTurn(messages) {
      scan(messages);
      pending = [];
      turn += 1;
      const due = new Set(dueExpansions([...live.values()], turn, options.maxTokens));
      const expired: string[] = [];
      for (const tracked of [...live.values()]) {
        if (!due.has(tracked.id)) continue;
        expire(tracked);
        expired.push(tracked.name);
      }
      return expired;
    },
    view(messages) {
      scan(messages);
      return stubbedMessages(messages, spans);
    },
    expired: (name) => expiredNames.has(name) && !live.has(name),
    compacted(messages, reattached) {
      // What was sent but not yet seen in a request is in the old conversation: it is live all the same.
      for (const p of pending) track(p, []);
      pending = [];
      spans = [];
      scanned = messages.length;
      const first = messages[0];
      const blocks = first === undefined || typeof first.content === "string" ? [] : first.content;
      const sections = new Map(
        planReattachment(reattached).included.map((s) => [s.name, renderReattachedSkill(s)]),
      );
      for (const tracked of [...live.values()]) {
        const section = sections.get(tracked.name);
        const block =
          section === undefined ? -1 : blocks.findIndex((b) => b.type === "text" && b.text.includes(section));
        if (section === undefined || block === -1) {
          // Not re-attached (over the cap): it is no longer in the conversation.
          live.delete(tracked.name);
          continue;
        }
        tracked.positions = [{ message: 0, block, part: section }];
        tracked.tokens = estimateTokens(section);
      }
    },
  };
}
