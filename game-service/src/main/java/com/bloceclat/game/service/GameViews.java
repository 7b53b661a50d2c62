package com.bloceclat.game.service;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.engine.Game;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.GameView;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/** Views of games ({@link Views}) with what may be shown now decided: the seed, a match's held-back grid. */
@ApplicationScoped
class GameViews {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    @Inject
    DailyChallenge daily;

    @Inject
    GameConfig.Limits limits;

    /** A game's state as its player sees it after {@code r}. */
    GameView of(GameEntity g, Rebuilt r) {
        return Views.game(g, r, seedShown(g), undoLeft(g, r));
    }

    /** Whether an undo is still within the game's caps (its undos, its events): else none is offered. */
    private boolean undoLeft(GameEntity g, Rebuilt r) {
        return Refusals.atCap(limits, g, GameEvent.Type.UNDO, r.undoneMoves.size()) == null;
    }

    /** A game's current state. */
    GameView of(GameEntity g) {
        return of(g, log.current(g));
    }

    /** The round in progress of a game. */
    int roundOf(GameEntity g) {
        return log.current(g).game.round();
    }

    /**
     * What a held-back view shows of a game at the end of a round: its board, score, streak and miss. Not the engine's
     * game, which holds every event it was built from (an entry per round of a long race would hold them all again).
     */
    record Grid(long board, int score, int streak, int miss) {

        static Grid of(Game g) {
            return new Grid(g.board(), g.score(), g.streak(), g.miss());
        }
    }

    /**
     * Grids of games at the end of a round they have left, by game and round: those never change (no undo crosses a
     * deal), and a race's live updates ask for the same one for every socket of the seat behind at every change of
     * the seat ahead, each of which read the game's events whole before. About a hundred bytes each.
     */
    private final Cache<GridKey, Grid> grids = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterAccess(Duration.ofMinutes(10)).build();

    private record GridKey(java.util.UUID gameId, int round) {
    }

    /**
     * Per game, its state at the end of the last round a grid was read for, which the next round's grid reads on from:
     * each round the seat behind completes then reads that round's events of the seat ahead, not all of its rounds
     * again (a pair of accounts, one seat a round behind the other, made that a read of the whole game a round).
     * Weighed by events (about 50 bytes each, docs/benchmarks.md "The game cache's heap"), 10 minutes unused.
     */
    private final Cache<java.util.UUID, RoundEnd> roundEnds = Caffeine.newBuilder().maximumWeight(200_000)
            .weigher((java.util.UUID id, RoundEnd e) -> e.state.eventCount + 1)
            .expireAfterAccess(Duration.ofMinutes(10)).build();

    private record RoundEnd(int round, Rebuilt state) {
    }

    /**
     * A game's grid as it was at the end of round {@code upTo}: after its events of rounds up to that one. Read from
     * its events once per game and round once the game is past that round, on from the last such round read.
     */
    Grid gridUpTo(GameEntity g, int upTo) {
        if (log.current(g).game.round() <= upTo) {
            return Grid.of(fromStart(g, upTo).game); // the round is still being played: not final, not kept
        }
        return grids.get(new GridKey(g.id, upTo), k -> roundEnd(g, upTo));
    }

    /** The grid at the end of round {@code upTo}, a round the game has left, read on from the last round end kept. */
    private Grid roundEnd(GameEntity g, int upTo) {
        // taken out while it is read on (its state changes in place) and put back after: a read of the same game meanwhile
        // starts from the game's first event, as one of an earlier round does
        RoundEnd last = roundEnds.asMap().remove(g.id);
        if (last != null && last.round > upTo) {
            roundEnds.put(g.id, last);
            return Grid.of(fromStart(g, upTo).game);
        }
        Rebuilt state = last == null ? fromStart(g, upTo)
                : last.state.then(store.eventsUpTo(g, last.state.eventCount, upTo));
        Grid grid = Grid.of(state.game); // before the put: once put back, a later round's read may change it in place
        roundEnds.put(g.id, new RoundEnd(upTo, state));
        return grid;
    }

    /** The game's state at the end of round {@code upTo}, replayed from its first event. */
    private Rebuilt fromStart(GameEntity g, int upTo) {
        return GameLog.replayed(g, store.eventsUpTo(g, 0, upTo));
    }

    /** A match's game as shown to the other seat while that seat is behind it, at the end of round {@code upTo}. */
    GameView heldBack(GameEntity g, int upTo) {
        return Views.heldBack(g, log.current(g), gridUpTo(g, upTo), upTo);
    }

    /**
     * Whether a game's seed may be shown now (views, sockets, the replay): a chosen seed always; the server's once the
     * game has ended; a daily seed once the game has ended and its UTC day is over (not before, even once the game
     * ended: the seed is everyone's that day; not while a game started that day is still played after it). Match
     * games carry the server's seed and follow its rule here.
     */
    boolean seedShown(GameEntity g) {
        if (g.matchId != null && !matchSeedShown(g)) {
            return false; // every seat plays the match's one seed: not before the whole match has ended (h2)
        }
        return switch (g.seedSource) {
            case CHOSEN -> true;
            case SERVER -> g.finished();
            case DAILY -> g.finished() && daily.over(g.dailyDay);
        };
    }

    /** A match's game: whether its match's seed may be shown (the match has finished). */
    boolean matchSeedShown(GameEntity g) {
        return MatchVisibility.seedShown(store.match(g.matchId).status == MatchEntity.Status.FINISHED);
    }
}
