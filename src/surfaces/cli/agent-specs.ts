// The agent runtime's commands as the command table declares them (ask, chat, run, doctor,
// skills). Only the declarations: the runner (agent-commands.ts) and the runtime load when one
// of these commands runs, so other commands do not pay for them at start-up.

import { RUNTIME_FLAGS } from '../../runtime/config/flags.js';
import type { CommandFlag, CommandSpec } from '../../tools/catalogue.js';

const flag = (name: string, value: string | undefined, help: string, type: CommandFlag['type'] = 'string'): CommandFlag => ({
  name,
  type,
  ...(value ? { value } : {}),
  help,
});

/** The runtime's own flags (declared once, in src/runtime/config/flags.ts) as the command table spells them. */
const RUNTIME_COMMAND_FLAGS: readonly CommandFlag[] = RUNTIME_FLAGS.map((f) => ({ name: f.name, type: f.type === 'integer' ? 'integer' : 'string', value: f.value, help: f.help }));

const agent = (spec: Omit<CommandSpec, 'json'>): CommandSpec => ({ json: false, ...spec });

/** The agent commands; `db` is the CLI's one --db flag (own-commands.ts). */
export function agentCommands(db: CommandFlag): CommandSpec[] {
  const AGENT_FLAGS: readonly CommandFlag[] = [...RUNTIME_COMMAND_FLAGS, { name: 'json', type: 'boolean', help: 'print the final result and the session id as JSON' }, db];
  return [
    agent({
      command: 'ask',
      summary:
        'Ask the analyst agent a question about your sessions in plain language; it answers from the store with read-only tools, citing session ids and file:line ' +
        'evidence, and the exchange is recorded as a session of its own (docs/runtime.md). Needs a provider: see hindsight doctor.',
      positionals: [{ name: 'QUESTION', display: '"QUESTION"', help: 'the question', required: true, variadic: true }],
      needs: 'a QUESTION, e.g. hindsight ask "why did yesterday\'s migration session fail?"',
      flags: [...AGENT_FLAGS],
    }),
    agent({
      command: 'chat',
      summary:
        'Talk with the analyst agent turn by turn (Ctrl-C stops the current answer, Ctrl-D or /exit ends); --resume ID continues a recorded session from its evidence.',
      positionals: [],
      flags: [...AGENT_FLAGS, flag('resume', 'ID', 'continue this recorded runtime session (its id or a unique prefix)')],
    }),
    agent({
      command: 'run',
      summary:
        'Run the coding agent on a TASK inside --workspace DIR (read, edit, write, bash, memory; nothing outside DIR). Writing, editing and running commands are ' +
        'refused unless --allow names them (--allow write,edit,bash).',
      positionals: [{ name: 'TASK', display: '"TASK"', help: 'what to do', required: true, variadic: true }],
      needs: 'a TASK, e.g. hindsight run "add a test for parseDate" --workspace . --allow edit,bash',
      flags: [
        ...AGENT_FLAGS,
        flag('workspace', 'DIR', 'the folder the agent works in (default: the current directory)'),
        flag('allow', 'write,edit,bash', 'what the agent may do besides reading: write, edit, bash'),
      ],
    }),
    agent({
      command: 'doctor',
      summary:
        'Check the agent runtime\'s set-up: the config file, that the provider\'s key is present (never shown), that the provider answers and lists the model, and that the store opens.',
      positionals: [],
      flags: [...AGENT_FLAGS],
    }),
    agent({
      command: 'skills',
      summary: 'List the skills added to the agents\' system prompt: markdown files in $XDG_CONFIG_HOME/hindsight/skills/ and the workspace\'s .hindsight/skills/.',
      positionals: [],
      flags: [{ name: 'json', type: 'boolean', help: 'the skills as JSON' }, flag('workspace', 'DIR', 'the workspace whose .hindsight/skills/ to read (default: the current directory)')],
    }),
  ];
}
