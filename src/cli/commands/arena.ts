// `tti-run arena serve`: MiniArena's sites, for a person to browse.
import { serveMiniArena } from '../../arena/index.js';

export async function serveArena(args: {
  port: number;
  seed: number | undefined;
  host: string;
}): Promise<number> {
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
