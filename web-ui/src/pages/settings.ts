/** #/settings: sound, vibration, the high-contrast palette and motion, kept on this device (app/settings.ts). */
import { h } from '../app/dom';
import { defineMessages } from '../app/i18n';
import { settings, updateSettings, type Motion } from '../app/settings';
import { feedback } from '../app/sound';

export const sm = defineMessages({
  fr: {
    title: 'Réglages',
    note: 'Gardés sur cet appareil seulement.',
    sound: 'Sons',
    soundDesc: 'Pose, lignes (plus aigu à chaque série), plateau net, fin de partie.',
    soundTry: 'Écouter',
    vibration: 'Vibrations',
    vibrationDesc: 'Sur les téléphones qui vibrent.',
    vibrationNone: 'Cet appareil ne vibre pas.',
    contrast: 'Contraste élevé',
    contrastDesc: 'Motifs et marques sur les cases : rien ne se lit à la seule couleur.',
    motion: 'Animations',
    'motion.system': 'Comme l’appareil',
    'motion.reduce': 'Réduites',
    'motion.full': 'Complètes',
    tutorial: 'Revoir le tutoriel',
    rules: 'Les règles',
    saved: 'Enregistré.',
    link: 'Réglages',
  },
  en: {
    title: 'Settings',
    note: 'Kept on this device only.',
    sound: 'Sound',
    soundDesc: 'Placing, lines (higher with each step of the streak), clean board, game over.',
    soundTry: 'Listen',
    vibration: 'Vibration',
    vibrationDesc: 'On phones that vibrate.',
    vibrationNone: 'This device does not vibrate.',
    contrast: 'High contrast',
    contrastDesc: 'Patterns and marks on the cells: nothing is told by colour alone.',
    motion: 'Motion',
    'motion.system': 'As the device',
    'motion.reduce': 'Reduced',
    'motion.full': 'Full',
    tutorial: 'Replay the tutorial',
    rules: 'The rules',
    saved: 'Saved.',
    link: 'Settings',
  },
});

export function settingsPage(main: HTMLElement): void {
  const s = settings();
  const status = h('p.note', { role: 'status', 'data-testid': 'settings-status' });
  const saved = () => { status.textContent = sm('saved'); };

  const toggle = (id: 'sound' | 'vibration' | 'highContrast', label: string, desc: string, testid: string) =>
    h('div.setting', {},
      h('input', {
        type: 'checkbox', id: `setting-${id}`, checked: s[id], 'data-testid': testid, 'aria-describedby': `setting-${id}-desc`,
        onchange: (e: Event) => { updateSettings({ [id]: (e.target as HTMLInputElement).checked }); saved(); },
      }),
      h('label', { for: `setting-${id}` }, label),
      h('p.note', { id: `setting-${id}-desc` }, desc));

  const canVibrate = typeof navigator.vibrate === 'function';
  const motions: Motion[] = ['system', 'reduce', 'full'];
  main.append(
    h('h1', {}, sm('title')),
    h('p.note', {}, sm('note')),
    h('form.settings', { onsubmit: (e: Event) => e.preventDefault() },
      toggle('sound', sm('sound'), sm('soundDesc'), 'setting-sound'),
      h('button.small', { type: 'button', 'data-testid': 'sound-try', onclick: () => feedback([{ kind: 'place' }, { kind: 'clear', lines: 3, multiplier: 3 }]) }, sm('soundTry')),
      toggle('vibration', sm('vibration'), canVibrate ? sm('vibrationDesc') : sm('vibrationNone'), 'setting-vibration'),
      toggle('highContrast', sm('contrast'), sm('contrastDesc'), 'setting-contrast'),
      h('fieldset.setting-group', {},
        h('legend', {}, sm('motion')),
        h('div.segmented', { role: 'radiogroup', 'aria-label': sm('motion') },
          ...motions.map((m) => h('span', {},
            h('input', { type: 'radio', name: 'motion', id: `motion-${m}`, value: m, checked: s.motion === m, 'data-testid': `motion-${m}`,
              onchange: () => { updateSettings({ motion: m }); saved(); } }),
            h('label', { for: `motion-${m}` }, sm(`motion.${m}`)))))),
    ),
    status,
    h('p.settings-links', {}, h('a.button', { href: '#/tutorial', 'data-testid': 'replay-tutorial' }, sm('tutorial')), ' ', h('a.button', { href: '#/rules' }, sm('rules'))),
  );
}
