import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { textTurn, toolTurn } from "../support/model-server.js";

/**
 * The scripted model's side of running the two skills below: "greet me" calls `greet`, reads its reference and
 * answers "Greeted."; "run the fork" calls `forky`, whose fork answers "fork says hi", and answers "Fork finished.".
 */
export function greetSkillTurns(): ScriptTurnInput[] {
  return [
    toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "greet me" } }),
    toolTurn(
      "load_reference",
      { skill: "greet", name: "reference/phrases.md" },
      { match: { hasToolResultFor: "Skill", lastUserTextIncludes: "GREET-BODY" } },
    ),
    textTurn("Greeted.", { hasToolResultFor: "load_reference", toolResultIncludes: "PHRASES-TEXT" }),
    textTurn("fork says hi", { lastUserTextIncludes: "FORK-BODY" }),
    toolTurn("Skill", { skill: "forky" }, { match: { lastUserTextIncludes: "run the fork" } }),
    textTurn("Fork finished.", { hasToolResultFor: "Skill", toolResultIncludes: "fork says hi" }),
  ];
}

/**
 * Uploads the two skills the served-session tests run: `greet` (inline; its body says `GREET-BODY`, its lazily
 * read reference `reference/phrases.md` says `PHRASES-TEXT`) and `forky` (`context: fork`; its body says
 * `FORK-BODY`).
 */
export async function uploadGreetSkills(client: Anthropic) {
  const file = (path: string, text: string) => toFile(Buffer.from(text), path);
  const greet = await client.beta.skills.create({
    files: [
      await file(
        "greet/SKILL.md",
        "---\nname: greet\ndescription: Greets people\n---\nGREET-BODY: be warm.\n",
      ),
      await file("greet/reference/phrases.md", "PHRASES-TEXT hello there\n"),
    ],
  });
  const forky = await client.beta.skills.create({
    files: [
      await file(
        "forky/SKILL.md",
        "---\nname: forky\ndescription: Runs apart\ncontext: fork\n---\nFORK-BODY go.\n",
      ),
    ],
  });
  return { greet, forky };
}
