// `tti-run export-sft`: a run's kept trajectories as chat-format SFT samples (JSON lines), for an
// external fine-tuning job. The prompt templates and image budget are the run's own (config.yaml).

import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/index.js';
import type { PromptTemplates } from '../../model/chat/index.js';
import { defineCommand, exitWith } from '../command.js';

export async function exportSftOfRun(args: {
  runDir: string;
  out: string;
  images: 'files' | 'data_url';
  prompt: string | undefined;
}): Promise<number> {
  const { exportSft } = await import('../../export/index.js');
  const { loadPromptTemplates } = await import('../../model/chat/index.js');
  const { readReplayLog } = await import('../../replay/index.js');
  if (!existsSync(args.runDir)) throw new ConfigError(`${args.runDir} does not exist: pass a run directory`);
  const replayDir = path.join(args.runDir, 'replay');
  if (!existsSync(replayDir))
    throw new ConfigError(`${args.runDir} has no replay/ folder: is it a run directory of tti-run train?`);
  const configFile = path.join(args.runDir, 'config.yaml');
  const config = loadConfig(existsSync(configFile) ? configFile : null);
  let templates: PromptTemplates;
  try {
    templates = loadPromptTemplates(args.prompt ?? config.chat.prompt);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const report = exportSft(readReplayLog(replayDir), {
    episodesDir: path.join(args.runDir, 'episodes'),
    out: args.out,
    templates,
    maxImages: config.chat.max_images,
    images: args.images,
  });
  process.stdout.write(
    `${report.file}: ${report.samples} samples from ${report.trajectories} kept trajectories ` +
      `(${report.images} images, ${report.missingImages} steps without a recorded screenshot)\n`,
  );
  return 0;
}

export const exportSftCommand = defineCommand({
  command: 'export-sft',
  describe:
    "write a run's kept trajectories as chat-format SFT samples (JSON lines, one per step) for an external fine-tuning job",
  builder: (y) =>
    y
      .option('run-dir', { type: 'string', demandOption: true })
      .option('out', { type: 'string', demandOption: true, describe: 'the .jsonl file to write' })
      .option('images', {
        choices: ['files', 'data_url'] as const,
        default: 'files' as const,
        describe: 'screenshots copied next to --out (absolute paths in the samples), or inline data URLs',
      })
      .option('prompt', { type: 'string', describe: "prompt templates (default: the run's chat.prompt)" })
      .example('$0 export-sft --run-dir runs/webarena --out sft/train.jsonl', 'one sample per kept step'),
  handler: (argv) =>
    exitWith(() =>
      exportSftOfRun({
        runDir: argv['run-dir'],
        out: argv.out,
        images: argv.images,
        prompt: argv.prompt,
      }),
    ),
});
