// A typical observation: a ≈300-node accessibility tree of ≈10 KB, as a shop's search page gives.
import type { Observation } from '../src/protocol/index.js';

const ROLES = ['link', 'button', 'StaticText', 'textbox', 'heading', 'img', 'listitem', 'combobox'];

export function typicalObservation(nodes = 300): Observation {
  const ids: number[] = [];
  const roles: string[] = [];
  const names: string[] = [];
  const depths: number[] = [];
  const lines: string[] = ['Tab 0 (current): Search results for "espresso machine"', ''];
  for (let i = 0; i < nodes; i++) {
    const role = ROLES[i % ROLES.length]!;
    const name = i % 3 === 0 ? `Item ${i}` : '';
    ids.push(1000 + i);
    roles.push(role);
    names.push(name);
    depths.push(1 + (i % 6));
    lines.push(`${'\t'.repeat(1 + (i % 3))}[${1000 + i}] ${role} '${name}'`);
  }
  return {
    text: lines.join('\n'),
    url: 'http://127.0.0.1:7770/catalogsearch/result/?q=espresso+machine',
    nodes: { ids, roles, names, depths, inViewport: ids.map((_, i) => (i < 60 ? 1 : 0)) },
    note: null,
    screenshotFrame: null,
  };
}
