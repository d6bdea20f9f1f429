// winston loggers: JSON lines per process under DIR/logs/, readable lines on the console.
import path from 'node:path';
import winston from 'winston';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type Logger = winston.Logger;

export interface LoggerOptions {
  /** the process's name in log lines and its file name, e.g. `supervisor`, `env-0` */
  name: string;
  level: LogLevel;
  /** when set, JSON lines go to `<runDir>/logs/<name>.jsonl` */
  runDir: string | null;
  /** console lines go to stderr at this level and above; null for none */
  consoleLevel: LogLevel | null;
}

const readable = winston.format.printf(({ timestamp, level, message, name }) => {
  const time = String(timestamp).slice(11, 23);
  return `${time} ${level.padEnd(5)} [${String(name)}] ${String(message)}`;
});

export function createLogger(options: LoggerOptions): Logger {
  const transports: winston.transport[] = [];
  if (options.runDir !== null) {
    transports.push(
      new winston.transports.File({
        filename: path.join(options.runDir, 'logs', `${options.name}.jsonl`),
        format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
      }),
    );
  }
  if (options.consoleLevel !== null) {
    transports.push(
      new winston.transports.Console({
        level: options.consoleLevel,
        // Everything to stderr: stdout is for command output (JSON status, tables).
        stderrLevels: ['error', 'warn', 'info', 'debug'],
        format: winston.format.combine(winston.format.timestamp(), readable),
      }),
    );
  }
  if (transports.length === 0) transports.push(new winston.transports.Console({ silent: true }));
  return winston.createLogger({ level: options.level, defaultMeta: { name: options.name }, transports });
}

/** Resolves once every transport has written what it holds; call before exiting. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    logger.on('finish', () => {
      clearTimeout(timer);
      resolve();
    });
    logger.end();
  });
}
