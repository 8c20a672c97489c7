// Every ```ts block of README.md compiles under `tsc --strict`, as a user's file would: each block is a module
// of its own in a temp project whose `node_modules` holds this package (its built types, dist/*.d.ts, through
// package.json "exports") and the dependencies the snippets import (@anthropic-ai/sdk, @types/node).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "./support/tmp-tree.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The ```ts blocks of a markdown text, each with its line number. */
function tsBlocks(text: string): { line: number; code: string }[] {
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({
    line: text.slice(0, m.index).split("\n").length,
    code: m[1] ?? "",
  }));
}

const blocks = tsBlocks(readFileSync(`${ROOT}README.md`, "utf8"));

let tree: TmpTree | undefined;
afterAll(async () => {
  await tree?.cleanup();
});

describe("README.md's TypeScript snippets", () => {
  it("compile under tsc --strict against the built package", async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const files = Object.fromEntries(blocks.map((b) => [`snippet-line-${b.line}.ts`, b.code]));
    tree = await tmpTree({
      ...files,
      "package.json": JSON.stringify({ type: "module" }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2023",
          lib: ["ES2023"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          skipLibCheck: true,
          types: ["node"],
        },
        include: ["*.ts"],
      }),
      "node_modules/skillwright": { symlink: ROOT },
      "node_modules/@anthropic-ai": { symlink: `${ROOT}node_modules/@anthropic-ai` },
      "node_modules/@types": { symlink: `${ROOT}node_modules/@types` },
    });
    const result = await execa(
      process.execPath,
      [`${ROOT}node_modules/typescript/bin/tsc`, "-p", tree.path()],
      {
        reject: false,
      },
    );
    // Errors name the snippet's file, whose name is its README line.
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
  }, 120_000);
});
