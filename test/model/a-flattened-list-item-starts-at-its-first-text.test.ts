// Rows of a list whose items the AX tree flattened into one run of siblings (src/model/candidates.ts
// treeOf): an item that opens with two texts (an email's sender, then its subject, then its
// buttons) is one row from its first text, so a button's context holds the sender the task names;
// a plain list of links stays one row per link; a list of items that open with a link is cut at each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { treeOf } from '../../src/model/candidates.js';
import type { NodeColumns } from '../../src/model/types.js';

/** A root with these children, in order. */
function flat(children: [role: string, name: string][]): NodeColumns {
  const all: [string, string][] = [['RootWebArea', 'page'], ...children];
  return {
    ids: all.map((_, i) => i + 1),
    roles: all.map(([r]) => r),
    names: all.map(([, n]) => n),
    depths: all.map((_, i) => (i === 0 ? 0 : 1)),
    inViewport: all.map(() => 1),
  };
}

/** The names in node i's row. */
function rowOf(nodes: NodeColumns, i: number): string[] {
  const tree = treeOf(nodes);
  const out: string[] = [];
  for (let j = tree.row[i]!; j >= 0 && j < tree.rowEnd[i]!; j++) out.push(nodes.names[j]!);
  return out;
}

test("an inbox's Star button shares a row with its email's sender and subject", () => {
  const emails = ['Elsa', 'Wendell', 'Rikki', 'Pavel'].flatMap((sender): [string, string][] => [
    ['StaticText', sender],
    ['StaticText', `subject of ${sender}`],
    ['button', 'Star'],
    ['button', 'Delete'],
    ['button', 'Reply'],
  ]);
  const nodes = flat(emails);
  const star = nodes.names.findIndex((n, i) => n === 'Star' && nodes.names[i - 2] === 'Wendell');
  assert.deepEqual(rowOf(nodes, star), ['Wendell', 'subject of Wendell', 'Star', 'Delete', 'Reply']);
});

test('a plain list of links keeps one row per link, and items that open with a link are cut at each', () => {
  const links = flat(Array.from({ length: 16 }, (_, k): [string, string] => ['link', `item ${k}`]));
  const tree = treeOf(links);
  assert.ok([...tree.row].every((r) => r === -1) || [...tree.row.slice(1)].every((r, i) => r === i + 1));
  const products = flat(
    Array.from({ length: 6 }, (_, k): [string, string][] => [
      ['link', `product ${k}`],
      ['StaticText', `$${k}.99`],
      ['StaticText', `${k} reviews`],
    ]).flat(),
  );
  const price = products.names.indexOf('$2.99');
  assert.deepEqual(rowOf(products, price), ['product 2', '$2.99', '2 reviews']);
});
