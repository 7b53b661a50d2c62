import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentRoute } from './router';

describe('the address read as a route', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('decodes each segment', () => {
    vi.stubGlobal('location', { hash: '#/replay/a%20b?at=3' });
    const route = currentRoute();
    expect(route.path).toEqual(['replay', 'a b']);
    expect(route.query.get('at')).toBe('3');
  });

  it('a segment that is not valid percent-encoding is kept as it is, never an exception that blanks the page', () => {
    vi.stubGlobal('location', { hash: '#/replay/%E0%A4%A' });
    expect(currentRoute().path).toEqual(['replay', '%E0%A4%A']);
  });
});
