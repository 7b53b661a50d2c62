import type { PageFactory } from '../app/router';
import { adminPage } from './admin';
import { dailyPage } from './daily';
import { homePage } from './home';
import { invitePage } from './invite';
import { leaderboardsPage } from './leaderboards';
import { racePage, versusPage } from './match';
import { myGamesPage } from './me';
import { replayPage } from './replay';
import { rulesPage } from './rules';
import { settingsPage } from './settings';
import { tutorialPage } from './tutorial';
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
  invite: invitePage,
  solver: solverPage,
  leaderboards: leaderboardsPage,
  daily: dailyPage,
  me: myGamesPage,
  replay: replayPage,
  admin: adminPage,
  settings: settingsPage,
  rules: rulesPage,
  tutorial: tutorialPage,
};
