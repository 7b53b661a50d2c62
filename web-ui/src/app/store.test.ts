import { afterEach, describe, expect, it, vi } from 'vitest';

/** A browser that blocks the site's data: reading `localStorage` or `sessionStorage` at all throws. */
function blockStorage(): void {
  for (const name of ['localStorage', 'sessionStorage']) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
  }
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>).localStorage;
  delete (globalThis as Record<string, unknown>).sessionStorage;
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('storage', () => {
  it('blocked site data: reads answer nothing, writes keep nothing, and nothing throws', async () => {
    blockStorage();
    const { local, session } = await import('./store');
    for (const store of [local, session]) {
      expect(store.available()).toBe(false);
      expect(store.get('bloc.lang')).toBeNull();
      expect(() => store.set('bloc.lang', 'en')).not.toThrow();
      expect(() => store.remove('bloc.lang')).not.toThrow();
    }
  });

  it('a full storage refuses a write without throwing; what it holds is still read', async () => {
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => (key === 'bloc.level' ? 'HARD' : null),
      setItem: () => { throw new DOMException('full', 'QuotaExceededError'); },
      removeItem: () => undefined,
    });
    const { local } = await import('./store');
    expect(local.available()).toBe(true);
    expect(() => local.set('bloc.level', 'EASY')).not.toThrow();
    expect(local.get('bloc.level')).toBe('HARD');
  });

  it('the page’s modules load with site data blocked (the language read at load was a blank page): French, and a choice holds for the visit', async () => {
    blockStorage();
    vi.stubGlobal('document', { documentElement: {} });
    const i18n = await import('./i18n');
    expect(i18n.lang()).toBe('fr');
    i18n.setLang('en');
    expect(i18n.lang()).toBe('en');
    vi.unstubAllGlobals(); // settings' page styles need a real document
    const { settings, updateSettings } = await import('./settings');
    expect(updateSettings({ sound: false }).sound).toBe(false);
    expect(settings().sound).toBe(false);
  });
});
