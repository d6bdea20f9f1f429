// A progress bar for commands that work in the foreground (pretrain): redrawn in place on a
// terminal; on a pipe or a log file it draws nothing, and the command prints its own plain lines.
import cliProgress from 'cli-progress';

export class ProgressBar {
  private readonly bar: cliProgress.SingleBar | null;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.bar = stream.isTTY
      ? new cliProgress.SingleBar(
          {
            stream,
            format: '{label} {bar} {value}/{total} {info}',
            barsize: 24,
            hideCursor: true,
            clearOnComplete: true,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
  }

  get interactive(): boolean {
    return this.bar !== null;
  }

  start(total: number, label: string): void {
    this.bar?.start(total, 0, { label, info: '' });
  }

  update(value: number, info = ''): void {
    this.bar?.update(value, { info });
  }

  stop(): void {
    this.bar?.stop();
  }
}
