import type { PageFactory } from '../app/router';
import { homePage } from './home';
import { racePage, versusPage } from './match';
import { soloPage } from './solo';
import { solverPage } from './solver';
import { twoPage } from './two';

/** The first path segment of the hash → its page. */
export const PAGES: Record<string, PageFactory> = {
  '': homePage,
  solo: soloPage,
  versus: versusPage,
  two: twoPage,
  race: racePage,
  solver: solverPage,
};
