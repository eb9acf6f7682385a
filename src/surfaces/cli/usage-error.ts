// A command line that makes no sense (unknown command, missing argument, bad flag value): main
// prints its sentence and exits 2. In a module of its own so main can recognise it without
// loading the commands that throw it.

export class UsageError extends Error {}
