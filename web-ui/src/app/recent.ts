/**
 * A map kept in one localStorage entry that holds its most recent `max` keys only (in the order they were last set).
 * A value that cannot be read is an empty map; a storage that refuses a write (full, blocked) keeps nothing new, and
 * never throws.
 */
import { local } from './store';
export function recentStore<V>(key: string, max: number) {
  const read = (): Record<string, V> => {
    try {
      const stored = JSON.parse(local.get(key) ?? '{}');
      return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
    } catch {
      return {};
    }
  };
  return {
    get(id: string): V | undefined {
      return read()[id];
    },
    set(ids: string[], value: V): void {
      const all = read();
      for (const id of ids) {
        delete all[id]; // the newest last: keys keep their order of insertion
        all[id] = value;
      }
      local.set(key, JSON.stringify(Object.fromEntries(Object.entries(all).slice(-max)))); // full or blocked: not kept
    },
  };
}
