/** Prints an error for a terminal and exits with status 1. */
export function exitWithError(error: unknown): never {
  console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
