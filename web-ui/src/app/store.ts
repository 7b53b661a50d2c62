/**
 * The browser's storage, read and written without ever throwing. A browser that blocks a site's data throws on the
 * mere reading of `localStorage` (a SecurityError), and a full storage throws on a write: read at a module's top, that
 * left a blank page. Here a read then answers null and a write keeps nothing, so the page works for the visit without
 * remembering it. Every module goes through here rather than touching `localStorage` or `sessionStorage`.
 */
export interface Store {
  /** Whether the browser lets this page keep anything here at all. */
  available(): boolean;
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

function store(name: 'localStorage' | 'sessionStorage'): Store {
  const area = (): Storage | undefined => (globalThis as unknown as Record<string, Storage | undefined>)[name];
  return {
    available() {
      try {
        return area() != null;
      } catch {
        return false;
      }
    },
    get(key) {
      try {
        return area()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        area()?.setItem(key, value);
      } catch {
        // full or blocked: not kept
      }
    },
    remove(key) {
      try {
        area()?.removeItem(key);
      } catch {
        // blocked
      }
    },
  };
}

/** Kept on this device (`localStorage`). */
export const local: Store = store('localStorage');
/** Kept for this tab's session (`sessionStorage`). */
export const session: Store = store('sessionStorage');
