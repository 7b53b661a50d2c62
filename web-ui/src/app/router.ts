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
  return { path: path.split('/').filter(Boolean).map(decoded), query: new URLSearchParams(query) };
}

/** A segment of the address, decoded; as it is when it is not valid percent-encoding (a typed or cut-off link). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function go(hash: string, replace = false): void {
  if (replace) {
    history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = hash;
  }
}
