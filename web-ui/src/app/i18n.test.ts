import { describe, expect, it, vi } from 'vitest';

describe('messages', () => {
  it('a key the client lacks (a level a newer server sends) reads as itself instead of throwing', async () => {
    vi.stubGlobal('localStorage', { getItem: () => 'en', setItem: () => undefined });
    const { t } = await import('./i18n');
    expect(t('level.NIGHTMARE' as never)).toBe('level.NIGHTMARE');
    vi.unstubAllGlobals();
  });
});
