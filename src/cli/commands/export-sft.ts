// `tti-run export-sft`: a run's kept trajectories as chat-format SFT samples (JSON lines), for an
// external fine-tuning job. The prompt templates and image budget are the run's own (config.yaml).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/index.js';
import { exportSft } from '../../export/index.js';
import { loadPromptTemplates } from '../../model/chat/index.js';
import { readReplayLog } from '../../replay/index.js';

export async function exportSftCommand(args: {
  runDir: string;
  out: string;
  images: 'files' | 'data_url';
  prompt: string | undefined;
}): Promise<number> {
  if (!existsSync(args.runDir)) throw new ConfigError(`${args.runDir} does not exist: pass a run directory`);
  const replayDir = path.join(args.runDir, 'replay');
  if (!existsSync(replayDir))
    throw new ConfigError(`${args.runDir} has no replay/ folder: is it a run directory of tti-run train?`);
  const configFile = path.join(args.runDir, 'config.yaml');
  const config = loadConfig(existsSync(configFile) ? configFile : null);
  let templates: ReturnType<typeof loadPromptTemplates>;
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
