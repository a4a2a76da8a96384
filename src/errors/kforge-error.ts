/** Base class of every error kforge reports to users: a stable `code` and a process exit code. */
export class KforgeError extends Error {
  /** Stable machine-readable identifier, e.g. `ALREADY_EXISTS`; documented in docs/errors.md. */
  readonly code: string;
  /** Process exit status the CLI uses for this error. */
  readonly exitCode: number;

  constructor(code: string, message: string, exitCode = 1) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }

  /** Lines too long for the one-line message (e.g. every task a failure left unrun), printed below it with --verbose. */
  get details(): string[] {
    return [];
  }
}
