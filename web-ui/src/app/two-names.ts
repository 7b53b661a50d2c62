import { recentStore } from './recent';

/** The two names of a two-players match on this device: the most recent {@link MAX_TWO_NAMES} matches' only. */
export const MAX_TWO_NAMES = 20;
const stored = recentStore<[string, string]>('bloc.twoNames', MAX_TWO_NAMES);

export function rememberTwoNames(matchId: string, names: [string, string]): void {
  stored.set([matchId], names);
}

/** The match's names; none when there are none or what is stored is not two names. */
export function twoNames(matchId: string): [string, string] | undefined {
  const names: unknown = stored.get(matchId);
  return Array.isArray(names) && names.length === 2 && names.every((n) => typeof n === 'string')
    ? names as [string, string] : undefined;
}
