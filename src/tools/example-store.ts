// The store every tool's examples run on: the shared fixtures claude-code and control-plane/normal
// ingested into one SQLite store, and a workspace folder holding notes.txt ("hello\n") for the file
// tools. The registry-driven example test builds it (src/surfaces/http/test-store.ts) and runs each
// example on every surface; the reference docs print the examples with these ids.

/** A Claude Code session of the fixtures, with sub-agents. */
export const EXAMPLE_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

/** A Claude Code session of the fixtures that was interrupted (rewind examples cut it back). */
export const EXAMPLE_INTERRUPTED_SESSION = 'd6e0bada-1959-4eec-a9d2-0bfade768d8f';

/** The Control Plane session of control-plane/normal. */
export const EXAMPLE_PLANE_SESSION = 'SES-5078F5F8';

/** A file in the example workspace. */
export const EXAMPLE_WORKSPACE_FILE = 'notes.txt';
