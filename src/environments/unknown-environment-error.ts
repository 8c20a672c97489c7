/**
 * Thrown by `engine.switchEnvironment(name)` (and by discovery for `createEngine({ environment })`) when no
 * environment of that name exists under `~/.skillwright/environments/`. `available` lists the ones that do.
 */
export class UnknownEnvironmentError extends Error {
  /** A stable code for callers that switch on it. */
  readonly code = "unknown-environment";
  /** The name asked for. */
  readonly environment: string;
  /** The environments that exist, sorted. */
  readonly available: readonly string[];

  constructor(environment: string, available: readonly string[], dir: string) {
    super(
      `unknown environment "${environment}": ${
        available.length === 0
          ? `there are none (an environment is a folder in ${dir})`
          : `the environments in ${dir} are ${available.join(", ")}`
      }`,
    );
    this.name = "UnknownEnvironmentError";
    this.environment = environment;
    this.available = [...available];
  }
}
