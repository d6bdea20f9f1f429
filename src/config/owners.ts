// Which section owns each key: the registry read key by key, for `tti-run config` and the check
// that every key has exactly one owner.
import { SECTIONS } from './sections/index.js';

export interface OwnedKey {
  /** the key's dotted path, e.g. 'collect.search_budget' */
  path: string;
  section: string;
  owner: string;
}

/** Every key the sections declare, in the registry's order (the core first). */
export function ownedKeys(): OwnedKey[] {
  return SECTIONS.flatMap((section) =>
    Object.entries(section.keys).flatMap(([at, shape]) =>
      Object.keys(shape).map((key) => ({
        path: at === '' ? key : `${at}.${key}`,
        section: section.name,
        owner: section.owner,
      })),
    ),
  );
}
