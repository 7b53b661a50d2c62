package com.bloceclat.game.service;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.service.Views.GameView;

/**
 * Resigning a game: by its player, for an online race's player who has gone, or for a versus-AI person idle past
 * {@code open-for} ({@link RaceReaper}).
 */
@ApplicationScoped
class Resignations {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    @Inject
    GameViews views;

    @Inject
    EntityManager em;

    GameView resign(UUID id, Requester requester) {
        return resignLocked(log.locked(id, requester));
    }

    /** Resigns a game whose row this transaction has locked: the one way a game is resigned. */
    GameView resignLocked(GameEntity g) {
        Refusals.ifFinished(store, g);
        Rebuilt r = log.current(g);
        GameEvent event = new GameEvent();
        event.type = GameEvent.Type.RESIGN;
        event.round = r.game.round();
        log.append(g, r, event);
        return views.of(g, r);
    }

    /**
     * Online race: resigns the game for its player if they are still gone, that is if the game is still playing in
     * a match still playing and its player has not been seen (see {@link GameEntity#seen}) for longer than
     * {@code timeout}, by the database's clock. Both games of the match are locked without waiting (SKIP LOCKED): a
     * game being moved, or being looked at by another replica's reaper, is left for a later pass, so two replicas
     * never both resign it and a move in progress always wins over its reaping. Answers whether it resigned.
     */
    boolean resignIfGone(UUID id, Duration timeout) {
        List<?> gone = em.createNativeQuery("SELECT g.id FROM game g "
                + "JOIN match m ON m.id = g.match_id WHERE g.id = :id AND g.mode = 'ONLINE_RACE' "
                + "AND g.status = 'PLAYING' AND m.status = 'PLAYING' "
                + "AND " + GONE + " "
                + "FOR UPDATE OF g SKIP LOCKED")
                .setParameter("id", id).setParameter("secs", timeout.toMillis() / 1000.0).getResultList();
        return !gone.isEmpty() && resignWithTheOtherSeat(id);
    }

    /** SQL: game {@code g}'s player has not been seen for longer than {@code :secs}, by the database's clock. */
    static final String GONE = "greatest(g.last_seen_at, g.created_at) < now() - make_interval(secs => :secs)";

    /** SQL: game {@code g} has not changed for longer than {@code :secs}, by the database's clock. */
    static final String IDLE = "greatest(g.updated_at, g.created_at) < now() - make_interval(secs => :secs)";

    /** SQL: the other seat of game {@code g}'s match ended longer than {@code :secs} ago. */
    static final String OTHER_ENDED = "EXISTS (SELECT 1 FROM game o WHERE o.match_id = g.match_id AND o.id <> g.id "
            + "AND o.finished_at < now() - make_interval(secs => :secs))";

    /**
     * Resigns a game of a match still playing that has not changed for longer than {@code openFor} (the time after
     * which it stops counting against its client, {@code bloc.limits.open-for}), by the database's clock, when
     * something waits for it: a versus-AI person's game while its AI still plays (the AI would otherwise wait for it at
     * every round's end, a claim and a question every pace, for ever), and an online race's game (a player who keeps
     * the match socket open is never gone, and the other seat, ended, would wait for the result for ever). An online
     * race's game is also resigned once the other seat has ended for longer than {@code openFor}, however it plays:
     * a placement every 29 minutes kept the match in play, and the ended seat from its result, for ever. Locked as
     * {@link #resignIfGone}. Answers whether it resigned.
     */
    boolean resignIfIdle(UUID id, Duration openFor) {
        List<?> idle = em.createNativeQuery("SELECT g.id FROM game g "
                + "JOIN match m ON m.id = g.match_id WHERE g.id = :id "
                + "AND g.status = 'PLAYING' AND m.status = 'PLAYING' "
                + "AND (g.mode = 'ONLINE_RACE' AND (" + IDLE + " OR " + OTHER_ENDED + ") "
                + "OR g.mode = 'VERSUS_AI' AND g.seat = 0 AND " + IDLE
                + " AND EXISTS (SELECT 1 FROM game a WHERE a.match_id = g.match_id AND a.seat = 1 "
                + "AND a.status = 'PLAYING')) "
                + "FOR UPDATE OF g SKIP LOCKED")
                .setParameter("id", id).setParameter("secs", openFor.toMillis() / 1000.0).getResultList();
        return !idle.isEmpty() && resignWithTheOtherSeat(id);
    }

    /** Resigns game {@code id} (its row locked) once the other seat's is locked too; false when it is busy. */
    private boolean resignWithTheOtherSeat(UUID id) {
        // the other seat's game may end too (won, when it is ahead): lock it first, as a move would
        List<?> other = em.createNativeQuery("SELECT g.id FROM game g "
                + "JOIN game me ON me.match_id = g.match_id AND me.id = :id WHERE g.id <> :id "
                + "FOR UPDATE OF g SKIP LOCKED")
                .setParameter("id", id).getResultList();
        if (other.isEmpty()) {
            return false;
        }
        GameEntity g = store.read(id);
        g.leftAt = GameLog.now();
        resignLocked(g);
        return true;
    }
}
