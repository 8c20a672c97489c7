import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import {
  createLocalTurnLocks,
  openPgTurnLocks,
  type TurnLocks,
} from "../../src/serve/sessions/turn-locks.js";

// Two instances' turn locks on one real PostgreSQL: a live holder keeps the other out, a dead one (its
// connection closed) lets it in; holds nest on one instance.

let postgres: TestPostgres;
let url: string;
const opened: TurnLocks[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase("turn_locks");
}, 120_000);
afterAll(async () => {
  for (const locks of opened) await locks.close();
  await postgres?.stop();
});

async function open(): Promise<TurnLocks> {
  const locks = await openPgTurnLocks(url);
  opened.push(locks);
  return locks;
}

describe("turn locks on PostgreSQL", () => {
  it("keeps a second instance out while the first holds a session, and lets it in once released", async () => {
    const a = await open();
    const b = await open();
    expect(await a.tryHold("sesn_1")).toBe(true);
    expect(await b.tryHold("sesn_1")).toBe(false);
    // Another session is free.
    expect(await b.tryHold("sesn_2")).toBe(true);
    await a.release("sesn_1");
    expect(await b.tryHold("sesn_1")).toBe(true);
    expect(await a.tryHold("sesn_1")).toBe(false);
    await b.release("sesn_1");
    await b.release("sesn_2");
  });

  it("counts nested holds on one instance: the lock goes only with the last release", async () => {
    const a = await open();
    const b = await open();
    const [first, second] = await Promise.all([a.tryHold("sesn_n"), a.tryHold("sesn_n")]);
    expect([first, second]).toEqual([true, true]);
    await a.release("sesn_n");
    expect(await b.tryHold("sesn_n")).toBe(false);
    await a.release("sesn_n");
    expect(await b.tryHold("sesn_n")).toBe(true);
    await b.release("sesn_n");
    // A release with no hold does nothing.
    await a.release("sesn_n");
    expect(await a.tryHold("sesn_n")).toBe(true);
    await a.release("sesn_n");
  });

  it("frees a dead instance's sessions: its connection closed, another instance takes them", async () => {
    const dying = await open();
    const other = await open();
    expect(await dying.tryHold("sesn_d")).toBe(true);
    expect(await other.tryHold("sesn_d")).toBe(false);
    await dying.close();
    expect(await other.tryHold("sesn_d")).toBe(true);
    await other.release("sesn_d");
  });
});

describe("local turn locks (one process owns the database)", () => {
  it("always holds, counted", async () => {
    const locks = createLocalTurnLocks();
    expect(await locks.tryHold("s")).toBe(true);
    expect(await locks.tryHold("s")).toBe(true);
    await locks.release("s");
    await locks.release("s");
    await locks.close();
  });
});
