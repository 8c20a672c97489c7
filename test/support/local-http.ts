import { createServer } from "node:http";

/** A local HTTP server on 127.0.0.1 (a port the system chose) that answers every request with `body`. */
export interface LocalHttp {
  url: string;
  port: number;
  /** The path of each request it answered, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** Starts a {@link LocalHttp}: what a sandboxed command may or may not reach, counted by its hits. */
export async function startLocalHttp(body = "LOCAL-ANSWER"): Promise<LocalHttp> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
