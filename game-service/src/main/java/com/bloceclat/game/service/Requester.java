package com.bloceclat.game.service;

/**
 * Who asks for a game: a logged-in player (token subject and name) or a guest, who proves ownership of a game with
 * the game token handed out when the game was created.
 *
 * @param subject    the token's subject, null for a guest
 * @param name       the player's name, null for a guest
 * @param gameToken  the guest's game token (header {@code X-Game-Token}), may be null
 */
public record Requester(String subject, String name, String gameToken) {

    public boolean guest() {
        return subject == null;
    }
}
