// Who a request acts for: the local user (an open loopback server), the admin (the server's
// static --token) or a team token scoped to its projects, read-only or not.

export type Principal =
  | { kind: 'local' }
  | { kind: 'admin' }
  | { kind: 'team'; tokenId: string; user: string; projects: readonly string[]; readOnly: boolean };

/** The projects a principal may see, or null for all of them. */
export function principalProjects(p: Principal): readonly string[] | null {
  return p.kind === 'team' ? p.projects : null;
}

/** True when every tool's output must be redacted and nothing may be changed. */
export function isReadOnly(p: Principal): boolean {
  return p.kind === 'team' && p.readOnly;
}
