// Which nodes of an observation appeared since the previous one: the env marks them (a suggestion
// after typing, a folder's files after its click) and a demo file without the mark gets it from
// its steps, by one rule. Chrome keeps a node's AX id while the node lives, so a new id is a new
// node; across documents (another URL, or a reload that replaced most ids) nothing is marked,
// since everything is new.

export function freshIds(
  previous: { url: string; ids: readonly (number | string)[] } | null,
  next: { url: string; ids: readonly (number | string)[] },
): boolean[] {
  if (previous === null || previous.url !== next.url) return next.ids.map(() => false);
  const before = new Set(previous.ids.map(String));
  let kept = 0;
  for (const id of next.ids) if (before.has(String(id))) kept += 1;
  if (kept * 2 < Math.min(before.size, next.ids.length)) return next.ids.map(() => false);
  return next.ids.map((id) => !before.has(String(id)));
}
