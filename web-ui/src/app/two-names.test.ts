import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TWO_NAMES, rememberTwoNames, twoNames } from './two-names';

function storage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => items.set(k, v),
  });
  return items;
}

describe('two players\' names kept on the device', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('the most recent matches only, in one entry', () => {
    const items = storage();
    for (let i = 0; i < MAX_TWO_NAMES + 5; i++) rememberTwoNames(`m${i}`, [`a${i}`, `b${i}`]);
    expect(items.size).toBe(1);
    expect(twoNames(`m${MAX_TWO_NAMES + 4}`)).toEqual([`a${MAX_TWO_NAMES + 4}`, `b${MAX_TWO_NAMES + 4}`]);
    expect(twoNames('m0')).toBeUndefined();
  });

  it('a stored value that cannot be read is no names, never an exception', () => {
    storage({ 'bloc.twoNames': '{not json' });
    expect(twoNames('m1')).toBeUndefined();
    storage({ 'bloc.twoNames': JSON.stringify({ m1: 'x', m2: [1, 2] }) });
    expect(twoNames('m1')).toBeUndefined();
    expect(twoNames('m2')).toBeUndefined();
  });
});
