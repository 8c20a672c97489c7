/** The Skill tool's name, as the model calls it and as permission rules name it (`Skill(name)`). */
export const SKILL_TOOL_NAME = "Skill";

/**
 * The Skill tool's description for the model (SPEC §4): what a skill is, that a fitting listed skill is called
 * before anything else, that names come from the listing only, and that forked skills come back finished.
 */
export const SKILL_TOOL_DESCRIPTION = `Run a skill: a packaged set of instructions, and often scripts or reference files, that teaches you how to do one kind of task well in this project or environment.

The skills you can use are announced in <system-reminder> messages that begin "The following skills are available for use with the Skill tool". Each entry gives a skill's name and, space permitting, what it is for. Some entries show the name only; those skills work just the same.

When to call it:
- When the user's request matches a listed skill, call this tool first, before you answer, explore or edit anything yourself. The skill carries knowledge you do not otherwise have.
- When the user types a slash command such as "/review", it names a skill: call this tool with that name.
- Call it once per task. If the skill's instructions are already in the conversation (a "Base directory for this skill" message), follow them instead of calling it again.
- Do not talk about using a skill without calling this tool.

How to call it:
- skill: a name exactly as it appears in the listing, including any prefix such as "my-plugin:" or "mcp__server__". Names are case-sensitive. Never guess or invent a name; if no listed skill fits, do the work without one.
- args: optional free text passed to the skill, for example a file, a branch name or a message.

What happens:
- Most skills load their instructions into this conversation; read them and carry them out.
- A skill that runs as a forked sub-agent does the whole task on its own and returns its finished result in the tool result. Report or build on that result; do not redo the work.`;
