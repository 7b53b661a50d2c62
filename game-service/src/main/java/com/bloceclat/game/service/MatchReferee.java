package com.bloceclat.game.service;

import com.bloceclat.game.GameEntity;

/**
 * Decides a match from its two games. Versus AI: the first game to end sets the score to beat; the other plays on
 * until it beats it (and wins at once) or ends. Two players and online race: both play to the end, the best score
 * wins. A game ends by game over or resignation; equal scores are a draw.
 */
public final class MatchReferee {

    private MatchReferee() {
    }

    /** One seat's game as the referee sees it. */
    public record Side(int score, boolean ended) {
    }

    /**
     * What the referee says.
     *
     * @param decided     the match is over
     * @param winnerSeat  0 or 1, null for a draw or while undecided
     * @param targetScore versus AI: the score to beat once one game ended, else null
     * @param result      in words
     */
    public record Verdict(boolean decided, Integer winnerSeat, Integer targetScore, String result) {
    }

    public static Verdict judge(GameEntity.Mode mode, Side first, Side second) {
        Integer target = null;
        if (mode == GameEntity.Mode.VERSUS_AI) {
            if (first.ended() && !second.ended()) {
                target = first.score();
                if (second.score() > target) {
                    return won(1, second.score(), first.score(), target);
                }
            } else if (second.ended() && !first.ended()) {
                target = second.score();
                if (first.score() > target) {
                    return won(0, first.score(), second.score(), target);
                }
            }
        }
        if (!first.ended() || !second.ended()) {
            return new Verdict(false, null, target, null);
        }
        if (mode == GameEntity.Mode.VERSUS_AI) {
            // both ended: the second could not beat the first's score
            target = target == null ? Math.max(first.score(), second.score()) : target;
        }
        if (first.score() == second.score()) {
            return new Verdict(true, null, target, "draw at " + first.score());
        }
        int winner = first.score() > second.score() ? 0 : 1;
        return won(winner, Math.max(first.score(), second.score()), Math.min(first.score(), second.score()), target);
    }

    private static Verdict won(int seat, int winning, int losing, Integer target) {
        return new Verdict(true, seat, target, "seat " + seat + " wins, " + winning + " to " + losing);
    }
}
