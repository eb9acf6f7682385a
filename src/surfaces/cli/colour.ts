// Colour for people at a terminal only: off when stdout is not a TTY, when NO_COLOR is set, or
// with --no-color; FORCE_COLOR turns it on (for pagers that understand escapes).

import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

export interface Paint {
  (style: Style, text: string): string;
  enabled: boolean;
}

export function painter(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, disabled = false): Paint {
  const enabled = !disabled && env.NO_COLOR === undefined && (env.FORCE_COLOR !== undefined || stream.isTTY === true);
  const paint = ((style: Style, text: string) => (enabled && text !== '' ? styleText(style, text) : text)) as Paint;
  paint.enabled = enabled;
  return paint;
}

/** The colour of a status word, shared by every view. */
export function statusStyle(status: string): Style {
  switch (status) {
    case 'completed':
      return 'green';
    case 'active':
      return 'cyan';
    case 'errored':
      return 'red';
    case 'interrupted':
      return 'yellow';
    default:
      return 'dim';
  }
}
