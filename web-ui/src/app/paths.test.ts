import { describe, expect, it } from 'vitest';
import { segment } from './paths';

describe('ids in API paths', () => {
  const resolved = (id: string) => new URL(`/api/games/${segment(id)}`, 'https://bloc.example').pathname;

  it('an id stays one segment of its path, whatever the address gave', () => {
    expect(resolved('3f0c2a9e-1b7d-4c55-9a55-0f7b1f0e6a11')).toBe('/api/games/3f0c2a9e-1b7d-4c55-9a55-0f7b1f0e6a11');
    expect(resolved('../../players/me')).toBe('/api/games/..%2F..%2Fplayers%2Fme');
    expect(resolved('a?b#c')).toBe('/api/games/a%3Fb%23c');
    expect(resolved('%2e%2e')).toBe('/api/games/%252e%252e');
  });

  it('"." and ".." are not steps up the path', () => {
    expect(resolved('..')).toBe('/api/games/%20..');
    expect(resolved('.')).toBe('/api/games/%20.');
  });
});
