/** Messages of rematch, sharing and private races (FR / EN). */
import { defineMessages } from '../app/i18n';

export const m = defineMessages({
  fr: {
    rematch: 'Revanche',
    share: 'Partager',
    copied: 'Texte copié.',
    shared: 'Partagé.',
    shareText: 'Bloc Éclat, niveau {level} : {score} points en {rounds} manche(s). Le replay : {link}',
    'invite.title': 'Course privée',
    'invite.make': 'Défier un ami',
    'invite.link': 'Envoyez ce lien à un ami : dès qu’il l’ouvre (connecté), la course commence.',
    'invite.copy': 'Copier le lien',
    'invite.expires': 'Le lien expire à {time}.',
    'invite.waiting': 'En attente de votre ami…',
    'invite.expired': 'Ce lien a expiré.',
    'invite.joining': 'Vous rejoignez la course de {host}…',
    'invite.loginFirst': 'Connectez-vous pour rejoindre cette course.',
    'invite.again': 'Nouvelle course privée',
  },
  en: {
    rematch: 'Rematch',
    share: 'Share',
    copied: 'Text copied.',
    shared: 'Shared.',
    shareText: 'Bloc Éclat, {level} level: {score} points in {rounds} round(s). Replay: {link}',
    'invite.title': 'Private race',
    'invite.make': 'Race a friend',
    'invite.link': 'Send this link to a friend: as soon as they open it (logged in), the race starts.',
    'invite.copy': 'Copy the link',
    'invite.expires': 'The link expires at {time}.',
    'invite.waiting': 'Waiting for your friend…',
    'invite.expired': 'This link has expired.',
    'invite.joining': 'Joining {host}’s race…',
    'invite.loginFirst': 'Log in to join this race.',
    'invite.again': 'New private race',
  },
});
