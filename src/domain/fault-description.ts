// How a fault reaches a log line: every adapter and process that logs one describes it so.

/**
 * A fault as it may be logged: its type and message, never its stack trace. Logged under
 * `fault`, not `err`, because pino's `err` serializer would bring the stack back.
 */
export const describeFault = (err: unknown): { type: string; message: string } =>
  err instanceof Error ? { type: err.name, message: err.message } : { type: typeof err, message: String(err) };
