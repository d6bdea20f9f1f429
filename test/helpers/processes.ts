// The OS process table, read from /proc: which processes belong to a run.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  pid: number;
  cmdline: string;
}

export function processesMatching(fragment: string): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      // A zombie has an empty cmdline and is gone as far as the run is concerned.
      if (cmdline.includes(fragment)) found.push({ pid: Number(name), cmdline });
    } catch {
      // exited while we looked
    }
  }
  return found;
}
