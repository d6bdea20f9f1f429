// `tti-run arena serve`: MiniArena's sites, for a person to browse.
import { defineCommand, exitWith } from '../command.js';

export async function serveArena(args: {
  port: number;
  seed: number | undefined;
  host: string;
}): Promise<number> {
  const { serveMiniArena } = await import('../../arena/index.js');
  const arena = await serveMiniArena({
    port: args.port,
    hostname: args.host,
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write('Ctrl-C to stop\n');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await arena.close();
  return 0;
}

export const arenaCommand = defineCommand({
  command: 'arena',
  describe: "MiniArena's web sites",
  builder: (y) =>
    y
      .command(
        'serve',
        'serve the shop, forum and tracker for a person to browse',
        (a) =>
          a
            .option('port', { type: 'number', default: 7770 })
            .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to listen on' })
            .option('seed', { type: 'number' })
            .example('$0 arena serve --port 7770', 'then open http://127.0.0.1:7770/'),
        (argv) =>
          exitWith(() =>
            serveArena({
              port: argv.port,
              seed: argv.seed,
              host: argv.host,
            }),
          ),
      )
      .demandCommand(1, 'name an arena command; see tti-run arena --help'),
  // only its subcommands run: without one, demandCommand answers
  handler: () => {},
});
