import { isatty } from "node:tty";
import type { CliIo } from "./io.js";

/** Questions put to the user on the terminal (the plugin commands' settings and consent). */
export interface TerminalAsk {
  /** One answer line; a secret one is read without echo. */
  line(question: string, options: { secret: boolean }): Promise<string>;
}

/** Reads a line with the terminal in raw mode, echoing nothing: backspace edits, Ctrl-C cancels. */
function readHidden(): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = "";
    const done = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") {
          done();
          resolve(value);
          return;
        }
        if (ch === "\u0003") {
          done();
          reject(new Error("cancelled"));
          return;
        }
        value = ch === "\u007f" || ch === "\b" ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
  });
}

/** The terminal's questions on stderr, or undefined when stdin is not a terminal (nothing is asked then). */
export function nodeTerminalAsk(io: CliIo): TerminalAsk | undefined {
  if (!isatty(0)) return undefined;
  return {
    async line(question, { secret }) {
      io.stderr(question);
      if (secret) {
        try {
          return (await readHidden()).trim();
        } finally {
          io.stderr("\n");
        }
      }
      const { createInterface } = await import("node:readline/promises");
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
      try {
        return (await rl.question("")).trim();
      } finally {
        rl.close();
      }
    },
  };
}

/** A yes/no question over {@link TerminalAsk}: only `y` or `yes` is a yes. */
export async function askYesNo(ask: TerminalAsk, question: string): Promise<boolean> {
  return /^y(es)?$/i.test(await ask.line(`${question} [y/N] `, { secret: false }));
}
