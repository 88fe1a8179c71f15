/**
 * A mistake in what the user asked for on the command line, or in a file it names: the CLI prints the message with
 * the usage and exits with code 2 (not an engine error).
 */
export class UsageError extends Error {}
