/** The environment `${VAR}` references are read from. */
export type EnvVars = Readonly<Record<string, string | undefined>>;

/** The result of expanding one string: the text, and the names of variables that were unset. */
export interface EnvExpansion {
  text: string;
  missing: string[];
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` as Claude Code does in `.mcp.json`: a set variable gives its value
 * (an empty one too), an unset one gives the default when there is one, else the reference stays as written
 * and the name is reported in `missing`. `$VAR` without braces is left alone. Pure.
 */
export function expandEnv(text: string, env: EnvVars): EnvExpansion {
  const missing: string[] = [];
  const expanded = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    if (!missing.includes(name)) missing.push(name);
    return whole;
  });
  return { text: expanded, missing };
}
