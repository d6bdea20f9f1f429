// The `tti-run` command line: it only registers the commands. Each command is one module under
// commands/ with its options, examples and handler; a command imports its heavier code when it
// runs, so a worker process does not load the browser env, MiniArena or the supervisor, nor pay
// for them at every restart.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { arenaCommand } from './commands/arena.js';
import { attachCommand } from './commands/attach.js';
import { chaosCommand } from './commands/chaos.js';
import { configCommand } from './commands/config.js';
import { credentialsCommand } from './commands/credentials.js';
import { evalCommand } from './commands/eval.js';
import { exportSftCommand } from './commands/export-sft.js';
import { injectCommand } from './commands/inject.js';
import { plotCommand } from './commands/plot.js';
import { pretrainCommand } from './commands/pretrain.js';
import { reportCommand } from './commands/report.js';
import { scoreCommand } from './commands/score.js';
import { statusCommand } from './commands/status.js';
import { stopCommand } from './commands/stop.js';
import { tasksCommand } from './commands/tasks.js';
import { trainCommand } from './commands/train.js';
import { viewCommand } from './commands/view.js';
import { workerCommand } from './commands/worker.js';

await yargs(hideBin(process.argv))
  .scriptName('tti-run')
  .usage('$0 <command> [options]\n\nTrain and evaluate web agents by scaling test-time interaction (TTI).')
  .command(trainCommand)
  .command(pretrainCommand)
  .command(plotCommand)
  .command(viewCommand)
  .command(reportCommand)
  .command(exportSftCommand)
  .command(evalCommand)
  .command(configCommand)
  .command(statusCommand)
  .command(attachCommand)
  .command(stopCommand)
  .command(injectCommand)
  .command(chaosCommand)
  .command(workerCommand)
  .command(credentialsCommand)
  .command(tasksCommand)
  .command(scoreCommand)
  .command(arenaCommand)
  .demandCommand(1, 'name a command; see --help')
  .strict()
  .help()
  .wrap(Math.min(110, process.stdout.columns ?? 110))
  .parseAsync();
