export interface Mode {
  id: string;
  label: string;
}

/** The modes of the game; none is playable yet, so each is shown as coming. */
export const MODES: readonly Mode[] = [
  { id: 'solo', label: 'Solo' },
  { id: 'versus-ai', label: 'Contre l’IA' },
  { id: 'two-players', label: 'Deux joueurs' },
  { id: 'online-race', label: 'Course en ligne' },
  { id: 'leaderboards', label: 'Classements' },
  { id: 'solver', label: 'Solveur' },
];

export function renderModes(list: HTMLElement): void {
  list.replaceChildren(
    ...MODES.map((mode) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#/${mode.id}`;
      link.textContent = mode.label;
      const soon = document.createElement('span');
      soon.className = 'soon';
      soon.textContent = 'bientôt';
      item.append(link, ' ', soon);
      return item;
    }),
  );
}
