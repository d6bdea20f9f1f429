// `tti-run chaos`: kill random workers of a run (and the supervisor once, then resume), let it
// finish, and print a JSON summary of what was killed and whether anything was lost or left.

import { parseDuration, runChaos } from '../../chaos/index.js';
import { ROLES, type Role } from '../../protocol/index.js';

export interface ChaosArgs {
  runDir: string;
  config: string | undefined;
  presets: string[];
  set: string[];
  killEvery: string;
  duration: string;
  killSupervisor: boolean;
  supervisorAt: string | undefined;
  roles: string[];
  seed: number;
  settle: string;
}

export async function chaos(args: ChaosArgs): Promise<number> {
  const roles = args.roles.map((r) => {
    if (!(ROLES as readonly string[]).includes(r))
      throw new Error(`--roles: '${r}' is not one of ${ROLES.join(', ')}`);
    return r as Role;
  });
  const durationMs = parseDuration(args.duration);
  const trainArgs: string[] = [];
  if (args.config) trainArgs.push('--config', args.config);
  for (const p of args.presets) trainArgs.push('--preset', p);
  for (const s of args.set) trainArgs.push('--set', s);
  const summary = await runChaos({
    runDir: args.runDir,
    trainArgs,
    killEveryMs: parseDuration(args.killEvery),
    durationMs,
    // By default the supervisor goes down a little before the middle of the chaos window.
    supervisorAtMs: args.killSupervisor
      ? args.supervisorAt !== undefined
        ? parseDuration(args.supervisorAt)
        : Math.round(durationMs * 0.4)
      : null,
    roles,
    seed: args.seed,
    settleMs: parseDuration(args.settle),
    say: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return summary.ok ? 0 : 1;
}
