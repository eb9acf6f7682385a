// Text from a log is data, never commands: a tool's output often carries ANSI colour codes or
// cursor moves that a terminal would act on and a markdown viewer would show as junk. One rule
// for every surface that prints such text (CLI timeline, markdown export).

/** The text without terminal escape sequences and other control characters (tab and newline stay). */
export function stripControl(text: string): string {
  return (
    text
      // CSI (colours, cursor moves), OSC (titles, hyperlinks, to BEL or ST) and two-byte escapes.
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)?|\u001b[@-_]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}
