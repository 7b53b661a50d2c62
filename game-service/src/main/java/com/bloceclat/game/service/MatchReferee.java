package com.bloceclat.game.service;

import com.bloceclat.game.GameEntity;

/**
 * Decides a match from its two games. Versus AI: the first game to end sets the score to beat; the other plays on
 * until it beats it (and wins at once) or ends. Two players and online race: both play to the end, the best score
 * wins. A game ends by game over or resignation; equal scores are a draw. Online race, a player who left (resigned
 * for them after the disconnect timeout): their score is the one to beat, as against the AI, so the player still
 * there wins at once when ahead, or plays on to beat it.
 */
public final class MatchReferee {

    private MatchReferee() {
    }

    /**
     * One seat's game as the referee sees it.
     *
     * @param left online race: ended because its player had gone for longer than the disconnect timeout
     */
    public record Side(int score, boolean ended, boolean left) {

        public Side(int score, boolean ended) {
            this(score, ended, false);
        }
    }

    /**
     * What the referee says.
     *
     * @param decided     the match is over
     * @param winnerSeat  0 or 1, null for a draw or while undecided
     * @param targetScore versus AI (or a race a player left): the score to beat once one game ended, else null
     * @param result      in words
     */
    public record Verdict(boolean decided, Integer winnerSeat, Integer targetScore, String result) {
    }

    public static Verdict judge(GameEntity.Mode mode, Side first, Side second) {
        Verdict v = judgeScores(mode, first, second);
        if (!v.decided() || mode != GameEntity.Mode.ONLINE_RACE || !(first.left() || second.left())) {
            return v;
        }
        String gone = first.left() && second.left() ? "both players left the race"
                : "seat " + (first.left() ? 0 : 1) + " left the race";
        return new Verdict(true, v.winnerSeat(), v.targetScore(), v.result() + " (" + gone + ")");
    }

    private static Verdict judgeScores(GameEntity.Mode mode, Side first, Side second) {
        Integer target = null;
        if (first.ended() && !second.ended() && beatToWin(mode, first)) {
            target = first.score();
            if (second.score() > target) {
                return won(1, second.score(), first.score(), target);
            }
        } else if (second.ended() && !first.ended() && beatToWin(mode, second)) {
            target = second.score();
            if (first.score() > target) {
                return won(0, first.score(), second.score(), target);
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

    /** Whether the game that ended sets a score for the other to beat (rather than both playing to the end). */
    private static boolean beatToWin(GameEntity.Mode mode, Side ended) {
        return mode == GameEntity.Mode.VERSUS_AI || mode == GameEntity.Mode.ONLINE_RACE && ended.left();
    }

    private static Verdict won(int seat, int winning, int losing, Integer target) {
        return new Verdict(true, seat, target, "seat " + seat + " wins, " + winning + " to " + losing);
    }
}
