// `tti-run config`: the config a run would resolve, key by key, each with the section that owns
// it and where its value came from (default, the file, a preset, a --set), as text or JSON.
import path from 'node:path';
import { explainConfig, SECTIONS } from '../../config/index.js';
import { defaultConfigFile } from '../../util/index.js';
import { defineCommand, exitWith } from '../command.js';
import { SUITE_OPTIONS, suiteSets } from '../suite-options.js';

export function printConfig(args: {
  config: string | undefined;
  presets: readonly string[];
  set: readonly string[];
  json: boolean;
}): number {
  // As `tti-run train` resolves a new run's config: its default file unless one is given.
  const file = args.config ?? (path.relative(process.cwd(), defaultConfigFile) || defaultConfigFile);
  const { keys } = explainConfig(file, args.set, args.presets);
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ file, presets: args.presets, set: args.set, keys })}\n`);
    return 0;
  }
  const shown = keys.map((k) => ({ ...k, text: JSON.stringify(k.value) }));
  const keyWidth = Math.max(...shown.map((k) => k.key.length));
  const valueWidth = Math.min(40, Math.max(...shown.map((k) => k.text.length)));
  const lines: string[] = [];
  for (const section of SECTIONS) {
    const rows = shown.filter((k) => k.section === section.name);
    lines.push(`${lines.length > 0 ? '\n' : ''}# ${section.name} (${section.owner}): ${section.about}`);
    for (const k of rows) lines.push(`${k.key.padEnd(keyWidth)}  ${k.text.padEnd(valueWidth)}  ${k.from}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

export const configCommand = defineCommand({
  command: 'config',
  describe: 'print the resolved config: each key, its value, and where the value came from',
  builder: (y) =>
    y
      .option('config', {
        type: 'string',
        describe: 'YAML config file (default: configs/miniarena.yaml, as train uses)',
      })
      .option('preset', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'lay configs/presets/NAME.yaml over the config, in order',
      })
      .option('set', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'override a config key: key.path=value',
      })
      .options(SUITE_OPTIONS)
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'one JSON object: { file, presets, set, keys: [{ key, value, source, from, section }] }',
      })
      .example('$0 config', "what a new run trains with, and which of it is MiniArena's config file")
      .example('$0 config --preset quick --set rollout_size=16', 'the quick preset, with one key changed')
      .example('$0 config --config runs/demo/config.yaml', 'what a run directory resumes with')
      .example(
        '$0 config --json | jq \'.keys[] | select(.source != "default")\'',
        'only the keys something set, as JSON',
      ),
  handler: (argv) =>
    exitWith(() =>
      printConfig({
        config: argv.config,
        presets: argv.preset.map(String),
        set: [...argv.set.map(String), ...suiteSets(argv)],
        json: argv.json,
      }),
    ),
});
