// What every command module shares: its yargs shape, and how a command ends the process.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { ConfigError } from '../config/index.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** A yargs command module whose handler is typed by the options its builder declares. */
export interface Command<U> {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv<U>;
  handler: (argv: ArgumentsCamelCase<U>) => void | Promise<void>;
}

export function defineCommand<U>(command: Command<U>): CommandModule<object, U> {
  return command;
}

// Commands end the process explicitly: a socket or timer left by a library must not keep it alive.
export async function exitWith(run: () => Promise<number> | number): Promise<void> {
  let code: number;
  try {
    code = await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`tti-run: ${message}\n`);
    code = error instanceof ConfigError ? 2 : 1;
  }
  process.exit(code);
}
