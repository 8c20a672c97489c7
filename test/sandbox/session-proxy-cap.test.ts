import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type SessionProxy, startSessionProxy } from "../../src/sandbox/session-proxy.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// A session's proxy holds at most its cap of connections open at once: one more is answered 503 and closed, so
// one session's commands cannot take every socket of the server that runs the others.

let tree: TmpTree | undefined;
let proxy: SessionProxy | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await proxy?.close();
  await tree?.cleanup();
});

/** A connection to the proxy, once connected. */
async function open(path: string): Promise<Socket> {
  const socket = connect(path);
  sockets.push(socket);
  await once(socket, "connect");
  return socket;
}

/** Everything the proxy sends on `socket` until it closes it. */
async function answer(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  await once(socket, "close");
  return Buffer.concat(chunks).toString("utf8");
}

/** What the proxy answers a request it refuses (a relative path) on a new connection: its status line. */
async function statusOfNew(path: string): Promise<string> {
  const socket = await open(path);
  const said = answer(socket);
  socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  return (await said).split("\r\n")[0] ?? "";
}

describe("the session proxy's connection cap", () => {
  it("answers a connection past the cap 503 and closes it, and takes new ones once others close", async () => {
    tree = await tmpTree({});
    const path = tree.path("proxy.sock");
    proxy = await startSessionProxy({ mode: "unrestricted" }, path, {
      resolve: async () => [],
      maxConnections: 2,
    });
    const first = await open(path);
    await open(path);
    const refused = await answer(await open(path));
    expect(refused.split("\r\n")[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(refused).toContain(
      "skillwright sandbox refused this request: this session already holds 2 connections open through its proxy",
    );
    // One closes: the next connection is served again (here, refused for its relative path: a 400).
    first.destroy();
    await expect.poll(() => statusOfNew(path)).toBe("HTTP/1.1 400 Bad Request");
  });
});
