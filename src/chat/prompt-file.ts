// Prompts (chat-model templates and the judge's prompt) are named by a file in prompts/ or given as a path.
import path from 'node:path';
import { projectRoot } from '../util/index.js';

/** Where a prompt name points: prompts/<name>.json (or .txt), or the path itself. */
export function promptFile(name: string, ext: '.json' | '.txt'): string {
  if (/^[\w-]+$/.test(name)) return path.join(projectRoot, 'prompts', `${name}${ext}`);
  return path.resolve(name);
}
