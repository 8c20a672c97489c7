import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";

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
