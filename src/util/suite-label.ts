// The name of the task suite a run's config.yaml says it used, for the viewer's and the report's
// headers. Read from the plain YAML (every field may be missing: an older run, an eval folder), so
// neither needs the suites' code to say what a run was on.
import path from 'node:path';

export interface RunSuiteFields {
  webarena_host?: string | null;
  tasks?: { train?: string | null; test?: string | null } | null;
  env?: { suite?: string | null; miniwob?: { dir?: string | null; url?: string | null } | null } | null;
}

const NAMES: Record<string, string> = {
  miniarena: 'MiniArena',
  webvoyager: 'WebVoyager',
  'tti-jsonl': 'TTI task file',
  miniwob: 'MiniWoB++',
};

/** e.g. "MiniWoB++ (/data/miniwob/html)", "WebArena at http://host", "MiniArena", "suite ./my-suite.js". */
export function runSuiteLabel(c: RunSuiteFields): string {
  const suite = c.env?.suite ?? 'auto';
  const file = c.tasks?.test ?? c.tasks?.train ?? null;
  if (suite === 'miniwob') {
    const where = c.env?.miniwob?.dir ?? c.env?.miniwob?.url ?? null;
    return where === null ? 'MiniWoB++' : `MiniWoB++ (${where})`;
  }
  if (suite === 'webarena' || (suite === 'auto' && c.webarena_host)) {
    return c.webarena_host ? `WebArena at ${c.webarena_host}` : 'WebArena';
  }
  // auto with a task file: the file's format picks the suite (WebVoyager, TTI's, or MiniArena's sites)
  if (suite === 'auto') return file === null ? 'MiniArena' : `tasks from ${path.basename(file)}`;
  return NAMES[suite] ?? `suite ${suite}`;
}
