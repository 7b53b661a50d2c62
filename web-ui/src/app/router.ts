/** Hash routes: `#/solo/<id>`, `#/leaderboards?level=HARD`; each page renders into the main area. */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

export interface Page {
  /** Called when the page is left (sockets, timers, key listeners). */
  dispose?: () => void;
}

export type PageFactory = (main: HTMLElement, route: Route) => Page | void | Promise<Page | void>;

export function currentRoute(): Route {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function go(hash: string, replace = false): void {
  if (replace) {
    history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = hash;
  }
}
