/**
 * An id (a game's, a match's, a link's code: from the page's address, so anyone's to write) as one segment of an API
 * path. Encoded, so that a "/" or "?" in it never leaves its place; and "." or "..", which the browser would resolve as
 * a step up the path even encoded, are sent with a space before them: an id that cannot be one, which the service
 * refuses. Before, `#/solo/..%2Fplayers%2Fme` sent the player's token to `GET /api/players/me`.
 */
export function segment(id: string): string {
  const encoded = encodeURIComponent(id);
  return encoded === '.' || encoded === '..' ? `%20${encoded}` : encoded;
}
