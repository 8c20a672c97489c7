import type { Client, ServerCapabilities } from "@modelcontextprotocol/client";
import { errorMessage } from "../io/fs.js";

/** The protocol revision from which `list_changed` notifications arrive only on a `subscriptions/listen` stream. */
export const LISTEN_PROTOCOL = "2026-07-28";

/** How many times one connection's listen stream is reopened after it dropped; then it stays closed. */
export const MAX_LISTEN_REOPENS = 5;

/** What we ask a `subscriptions/listen` stream for: the lists the manager follows. */
export interface ListenFilter {
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
}

/**
 * The listen filter for a connection: prompts and resources (where skills live) when the server offers them, on
 * protocol `LISTEN_PROTOCOL` or later; undefined on older protocols (their notifications come unasked) and when
 * there is nothing to follow. Tools are not followed: a session's tools never change under it. Pure.
 */
export function listenFilter(
  protocolVersion: string | undefined,
  capabilities: ServerCapabilities | undefined,
): ListenFilter | undefined {
  if (protocolVersion === undefined || protocolVersion < LISTEN_PROTOCOL) return undefined;
  const filter: ListenFilter = {
    ...(capabilities?.prompts === undefined ? {} : { promptsListChanged: true }),
    ...(capabilities?.resources === undefined ? {} : { resourcesListChanged: true }),
  };
  return Object.keys(filter).length === 0 ? undefined : filter;
}

/** What `followListChanges` needs. */
export interface FollowOptions {
  client: Pick<Client, "listen">;
  filter: ListenFilter;
  /** How long the server may take to acknowledge the stream. */
  timeout: number;
  /** Aborts a stream still waiting for its acknowledgement (the manager is closing). */
  signal?: AbortSignal;
  /** False once the connection ended or is closing: a stream that drops then is not reopened. */
  connected: () => boolean;
  /** The stream was reopened after a drop: notifications sent in between were lost, so relist. */
  onReopened: () => void;
  /** The stream could not be opened, or dropped and will not be reopened (a warning, never fatal). */
  onProblem: (message: string) => void;
}

/** An open listen stream that reopens itself after a drop. */
export interface ListChangeFollower {
  /** Stops following (closes the stream). Idempotent; never rejects. */
  close(): Promise<void>;
}

/**
 * Opens a `subscriptions/listen` stream for `filter` and keeps it open while the server is connected: when it
 * drops (`remote`), it is reopened at once, at most `MAX_LISTEN_REOPENS` times per connection. The client
 * dispatches the stream's notifications to its `setNotificationHandler` handlers, the same ones the 2025
 * protocol's unasked notifications reach. A server that ends the stream on purpose (`graceful`) is left alone.
 * Resolves once the first stream was acknowledged or refused; never rejects.
 */
export async function followListChanges(options: FollowOptions): Promise<ListChangeFollower> {
  let stopped = false;
  let current: { close(): Promise<void> } | undefined;
  let reopens = 0;

  async function open(reopened: boolean): Promise<void> {
    let subscription: Awaited<ReturnType<Client["listen"]>>;
    try {
      subscription = await options.client.listen(options.filter, {
        timeout: options.timeout,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      if (!stopped && options.connected()) {
        options.onProblem(`could not open the subscriptions/listen stream: ${errorMessage(error)}`);
      }
      return;
    }
    if (stopped) return void (await subscription.close());
    current = subscription;
    if (reopened) options.onReopened();
    void subscription.closed.then((how) => {
      if (how !== "remote" || stopped || !options.connected()) return;
      if (reopens >= MAX_LISTEN_REOPENS) {
        options.onProblem(
          `the subscriptions/listen stream dropped ${reopens + 1} times; changes to its lists are no longer followed`,
        );
        return;
      }
      reopens += 1;
      void open(true);
    });
  }

  await open(false);
  return {
    async close() {
      stopped = true;
      try {
        await current?.close();
      } catch {
        // Closing a stream of a connection that is already gone.
      }
    },
  };
}
