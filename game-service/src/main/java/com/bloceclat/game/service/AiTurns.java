package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.GameService.AiQuestion;
import com.bloceclat.game.service.Views.Suggestion;

/**
 * Versus AI: the AI's turns ({@link AiDriver} asks the solver between {@link #question} and {@link #play}). A turn is
 * played only on the state it was asked about, so two replicas never both play one turn.
 */
@ApplicationScoped
class AiTurns {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    @Inject
    Moves moves;

    @Inject
    Resignations resignations;

    @Inject
    GameConfig.Limits limits;

    /**
     * The question for the AI's next placement, {@link AiQuestion#waits() waiting} when it may not play yet, or null
     * when its game or match is no longer being played. An AI game at the cap of events a game may have
     * ({@link Refusals#eventCap}, where a person's next move is refused) is resigned here: an AI that never dies (on
     * EASY, behind a high score to beat) would otherwise play on past what its {@code game-finished} may hold.
     */
    AiQuestion question(UUID gameId) {
        GameEntity g = store.read(gameId);
        if (g == null || g.status != GameEntity.Status.PLAYING) {
            return null;
        }
        MatchEntity match = store.match(g.matchId);
        if (match.status != MatchEntity.Status.PLAYING) {
            return null;
        }
        if (g.eventCount >= Refusals.eventCap(limits)) {
            GameEntity locked = store.locked(gameId);
            if (locked.status == GameEntity.Status.PLAYING) {
                resignations.resignLocked(locked); // ended as when blocked: the match is judged (MatchJudge)
            }
            return null;
        }
        Rebuilt r = log.current(g);
        GameEntity person = store.seat(g.matchId, 0);
        int piecesLeft = (int) Arrays.stream(r.game.remaining()).filter(Objects::nonNull).count();
        if (!MatchVisibility.aiMayPlay(r.game.round(), piecesLeft, log.current(person).game.round(),
                person.finished())) {
            return AiQuestion.waiting(g.id, g.eventCount);
        }
        SolverQuestions.Question q = SolverQuestions.ai(g.id + ":" + g.eventCount, r.game, match.strength,
                g.seed + g.eventCount);
        return new AiQuestion(g.id, g.eventCount, q.request(), q.slots(), false);
    }

    /**
     * Plays {@code placement} (the next of the solver's plan for the round) on the AI's game, unless the game moved on
     * since {@code question} was asked (another replica played it). Answers the placement's time (its game's last
     * change), or null when none was made.
     *
     * @throws com.bloceclat.engine.IllegalMoveException when the engine refuses it (nothing is written)
     */
    OffsetDateTime play(AiQuestion question, Suggestion placement) {
        GameEntity g = store.locked(question.gameId());
        if (g.eventCount != question.eventCount() || g.status != GameEntity.Status.PLAYING
                || store.match(g.matchId).status != MatchEntity.Status.PLAYING) {
            return null;
        }
        Rebuilt r = log.current(g);
        moves.placed(g, r, r.lastMoveNumber() + 1, placement.slot(), placement.row(), placement.col());
        return g.updatedAt;
    }
}
