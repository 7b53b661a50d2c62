package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.bloceclat.engine.Game;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.MatchEntity;

/**
 * Decides matches as their games change: observes {@link GameChanged} inside the transaction of the change, asks the
 * {@link MatchReferee} (a pure decision) and applies its verdict in {@link #apply}, the one place a match is decided
 * and a game ends by winning it. The match row is locked after the game's (the order every change takes them in),
 * so two games of a match are judged one at a time and the second sees the first's committed state. A game that
 * wins while still playing because the other ended behind it ends in the same transaction when its row can be locked
 * before the match's (versus AI, the AI's game ended), else in the next change that can (the reaper's, or the AI
 * driver's {@link #endDecidedAiGame}). Games end
 * through {@link GameLog#finish}, so each game's {@code game-finished} message is written once whoever ends it.
 */
@ApplicationScoped
class MatchJudge {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    void judge(@Observes GameChanged change) {
        GameEntity changed = change.game();
        if (changed.matchId == null) {
            return;
        }
        // Versus AI, the AI's game has just ended: if it ended behind the person, the person's game has won while
        // still playing and ends in this transaction, so its row is locked now, before the match's. No transaction
        // holding the person's row ever waits for the AI's (a person's change reads it without a lock).
        boolean aiEnded = changed.mode == GameEntity.Mode.VERSUS_AI && changed.seat == MatchService.AI_SEAT
                && (changed.finished() || change.ending() != null);
        GameEntity lockedOther = aiEnded ? store.lockedSeat(changed.matchId, 1 - changed.seat) : null;
        MatchEntity m = store.lockedMatch(changed.matchId);
        if (m.status != MatchEntity.Status.PLAYING) {
            // decided by a change that committed after this one's refusals read the match unlocked (Refusals): an AI
            // placement whose row was locked while its person's last change decided the match. Refused, so that no
            // game of a decided match changes after its result (the AI's game would have scored past it)
            throw Refusals.conflict("The match is over: " + m.result + ".");
        }
        GameEntity other = lockedOther != null ? lockedOther : store.seat(m.id, 1 - changed.seat);
        MatchReferee.Side mine = new MatchReferee.Side(changed.score, changed.finished() || change.ending() != null,
                changed.leftAt != null);
        MatchReferee.Side theirs = side(other);
        MatchReferee.Verdict v = changed.seat == 0 ? MatchReferee.judge(m.mode, mine, theirs, m.targetScore)
                : MatchReferee.judge(m.mode, theirs, mine, m.targetScore);
        apply(m, v, change.event().createdAt, changed, change.state(), other, lockedOther != null);
    }

    /**
     * Versus AI: the person's game ended behind the AI's score, which decided the match while the AI's game was still
     * playing; that game has won and ends now. The game's row lock is taken before the match is read.
     */
    void endDecidedAiGame(UUID gameId) {
        GameEntity g = store.locked(gameId);
        if (g == null || g.finished() || g.matchId == null) {
            return;
        }
        MatchEntity m = store.match(g.matchId);
        if (m.status == MatchEntity.Status.FINISHED && m.winnerSeat != null && m.winnerSeat.equals(g.seat)) {
            log.finish(g, GameEntity.Status.WON, log.current(g).game, m.finishedAt);
        }
    }

    /**
     * Applies a verdict on match {@code m} (row locked) after a change of {@code changed} ({@code state} its engine
     * state): the score to beat, the result, and the end as {@code WON} of a game still playing that has won: the
     * changed game that beat the score to beat, or the other when the changed one ended behind it: its player left
     * the race, or it is the AI's game. The match's row is written when the verdict changes it.
     */
    private void apply(MatchEntity m, MatchReferee.Verdict v, OffsetDateTime at, GameEntity changed, Game state,
            GameEntity other, boolean otherLocked) {
        boolean newTarget = v.targetScore() != null && !v.targetScore().equals(m.targetScore);
        if (newTarget) {
            m.targetScore = v.targetScore();
        }
        if (v.decided()) {
            m.status = MatchEntity.Status.FINISHED;
            m.winnerSeat = v.winnerSeat();
            m.result = v.result();
            m.finishedAt = GameLog.now(); // after the change's event: a game ended by this decision ends after it
        }
        if (newTarget || v.decided()) {
            store.updateMatch(m); // rows are values: written once, whatever the verdict changed
        }
        if (!v.decided() || v.winnerSeat() == null) {
            return;
        }
        if (v.winnerSeat().equals(changed.seat)) {
            if (v.atOnce()) {
                // above the score to beat: WON, also when this placement ended its game (GameLog.append ends it after)
                log.finish(changed, GameEntity.Status.WON, state, at);
            }
        } else if (changed.leftAt != null || otherLocked) {
            // the other seat's row is locked before this match's: by the reaper (RaceReaper) when the changed
            // game's player left the race, by judge() when the AI's game ended behind its person
            log.finish(other, GameEntity.Status.WON, log.current(other).game, m.finishedAt);
        } else if (v.atOnce() && m.mode == GameEntity.Mode.VERSUS_AI) {
            // the person's game ended behind the AI's score: the AI's game has won, and ends now if its row is free,
            // never waiting for it (an AI move holding it may wait for the person's row, which this holds); else the
            // AI driver ends it on its next tick (endDecidedAiGame). Ended now, the match's last state frame shows it.
            GameEntity ai = store.lockedSeatIfFree(m.id, other.seat);
            if (ai != null) {
                log.finish(ai, GameEntity.Status.WON, log.current(ai).game, m.finishedAt);
            }
        }
    }

    private static MatchReferee.Side side(GameEntity g) {
        return new MatchReferee.Side(g.score, g.finished(), g.leftAt != null);
    }
}
