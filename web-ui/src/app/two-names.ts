/**
 * The two names of a two-players match on this device, per match: the most recent {@link MAX_TWO_NAMES} matches only,
 * in one entry (before, one entry per match, kept for good). A stored value that cannot be read is no names.
 */
const KEY = 'bloc.twoNames';
export const MAX_TWO_NAMES = 20;

function all(): Record<string, [string, string]> {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof stored === 'object' && stored !== null ? stored : {};
  } catch {
    return {};
  }
}

export function rememberTwoNames(matchId: string, names: [string, string]): void {
  const kept = all();
  delete kept[matchId]; // the newest last
  kept[matchId] = names;
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(Object.entries(kept).slice(-MAX_TWO_NAMES))));
  } catch {
    // full or blocked: the match is played with the default names
  }
}

export function twoNames(matchId: string): [string, string] | undefined {
  const names = all()[matchId];
  return Array.isArray(names) && names.length === 2 && names.every((n) => typeof n === 'string') ? names : undefined;
}
