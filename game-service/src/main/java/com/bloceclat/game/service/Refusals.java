package com.bloceclat.game.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.config.GameConfig;

/** What the commands refuse, and how (404, 403, 409 with a reason a player can act on). */
final class Refusals {

    private Refusals() {
    }

    /** The game, if {@code requester} owns it ({@link #ownedBy}); 404 without it, 403 saying whose it is. */
    static GameEntity owned(GameEntity g, UUID id, Requester requester) {
        if (g == null) {
            throw new NotFoundException("There is no game " + id + ".");
        }
        if (!ownedBy(g, requester)) {
            throw new ForbiddenException(g.ownerSubject != null ? "This game belongs to another player."
                    : "This is a guest's game: send the game token it was created with (header X-Game-Token).");
        }
        return g;
    }

    /** Whether {@code requester} owns {@code g}: by the token's subject, or a guest by the game token (an AI's: nobody). */
    static boolean ownedBy(GameEntity g, Requester requester) {
        if (g.ownerSubject != null) {
            return g.ownerSubject.equals(requester.subject());
        }
        return g.guestTokenHash != null && requester.gameToken() != null
                && sha256(requester.gameToken()).equals(g.guestTokenHash);
    }

    /** Refuses a change of a game that has ended, or whose match has. */
    static void ifFinished(GameStore store, GameEntity g) {
        if (g.matchId != null) {
            MatchEntity match = store.match(g.matchId);
            if (match.status == MatchEntity.Status.FINISHED) {
                throw conflict("The match is over: " + match.result + ".");
            }
        }
        if (g.status == GameEntity.Status.WON) {
            throw conflict("The game won its match and is finished.");
        }
        if (g.status == GameEntity.Status.OVER) {
            throw conflict("The game is over: no piece fits any more. Its replay is at /api/games/" + g.id
                    + "/replay.");
        }
        if (g.status == GameEntity.Status.RESIGNED) {
            throw conflict("The game was resigned.");
        }
    }

    /** The events a game may have: {@code bloc.limits.events-per-game}, at most what a replay may hold. */
    static int eventCap(GameConfig.Limits limits) {
        return Math.min(limits.eventsPerGame(), GameFinished.MAX_REPLAY_EVENTS);
    }

    /**
     * Bounded work per game (docs/game-service.md "Limits"): refuses one more event past {@code bloc.limits}'s cap on
     * events, and one more undo or hint ({@code type}, of which the game has {@code sofar}) past its own cap. A game
     * at its event cap can still be resigned (a resignation is no replay event), so its replay is published. Called
     * under the game's row lock, so two requests at once cannot both pass at cap - 1.
     */
    static void ifAtCap(GameConfig.Limits limits, GameEntity g, GameEvent.Type type, long sofar) {
        String reason = atCap(limits, g, type, sofar);
        if (reason != null) {
            throw conflict(reason);
        }
    }

    /** Why one more event of {@code type} is past a cap of the game ({@link #ifAtCap}), or null when it is not. */
    static String atCap(GameConfig.Limits limits, GameEntity g, GameEvent.Type type, long sofar) {
        int events = eventCap(limits);
        if (g.eventCount >= events) {
            return "The game has reached the cap of " + events + " events a game may have: resign it to "
                    + "finish it (its replay and score are published as for any game).";
        }
        if (type == GameEvent.Type.UNDO && sofar >= limits.undosPerGame()) {
            return "The game has used the " + limits.undosPerGame() + " undos a game may have.";
        }
        if (type == GameEvent.Type.HINT && sofar >= limits.hintsPerGame()) {
            return "The game has used the " + limits.hintsPerGame() + " hints a game may have.";
        }
        return null;
    }

    /** Two players on one device play one after the other: seat 1 once seat 0's game has ended. */
    static void ifNotYourTurn(GameStore store, GameEntity g) {
        if (g.mode == GameEntity.Mode.TWO_PLAYERS && g.seat == 1 && !store.seat(g.matchId, 0).finished()) {
            throw conflict("Player 2 plays once player 1's game has ended.");
        }
    }

    static GameEntity soloOnly(GameEntity g) {
        if (g.mode != GameEntity.Mode.SOLO) {
            throw conflict("Hints and undo are for solo games.");
        }
        return g;
    }

    static ClientErrorException conflict(String message) {
        return new ClientErrorException(message, Response.Status.CONFLICT);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
