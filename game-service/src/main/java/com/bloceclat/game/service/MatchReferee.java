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
     * @param atOnce      the winner won by getting above the score to beat: its game ends {@code WON}, even when the
     *                    placement that got it there was also its last (game over)
     */
    public record Verdict(boolean decided, Integer winnerSeat, Integer targetScore, String result, boolean atOnce) {
    }

    /** {@link #judge(GameEntity.Mode, Side, Side, Integer)} of a match with no score to beat yet. */
    public static Verdict judge(GameEntity.Mode mode, Side first, Side second) {
        return judge(mode, first, second, null);
    }

    /**
     * @param target the match's score to beat as set by an earlier change (the first game to end sets it, and it never
     *               changes after), or null
     */
    public static Verdict judge(GameEntity.Mode mode, Side first, Side second, Integer target) {
        Verdict v = judgeScores(mode, first, second, target);
        if (!v.decided() || mode != GameEntity.Mode.ONLINE_RACE || !(first.left() || second.left())) {
            return v;
        }
        String gone = first.left() && second.left() ? "both players left the race"
                : "seat " + (first.left() ? 0 : 1) + " left the race";
        return new Verdict(true, v.winnerSeat(), v.targetScore(), v.result() + " (" + gone + ")", v.atOnce());
    }

    private static Verdict judgeScores(GameEntity.Mode mode, Side first, Side second, Integer set) {
        Integer target = set;
        if (target == null && first.ended() != second.ended()) {
            Side ended = first.ended() ? first : second;
            target = beatToWin(mode, ended) ? Integer.valueOf(ended.score()) : null;
        }
        if (target != null) {
            // the game that set it scored exactly the target, so at most the other is above it: it has won at once,
            // on whatever placement got it there (its last one included)
            if (first.score() > target) {
                return won(0, first.score(), second.score(), target, true);
            }
            if (second.score() > target) {
                return won(1, second.score(), first.score(), target, true);
            }
        }
        if (!first.ended() || !second.ended()) {
            return new Verdict(false, null, target, null, false);
        }
        if (mode == GameEntity.Mode.VERSUS_AI && target == null) {
            target = Math.max(first.score(), second.score()); // both ended, none first: not from one change's log
        }
        if (first.score() == second.score()) {
            return new Verdict(true, null, target, "draw at " + first.score(), false);
        }
        int winner = first.score() > second.score() ? 0 : 1;
        return won(winner, Math.max(first.score(), second.score()), Math.min(first.score(), second.score()), target,
                false);
    }

    /** Whether the game that ended sets a score for the other to beat (rather than both playing to the end). */
    private static boolean beatToWin(GameEntity.Mode mode, Side ended) {
        return mode == GameEntity.Mode.VERSUS_AI || mode == GameEntity.Mode.ONLINE_RACE && ended.left();
    }

    private static Verdict won(int seat, int winning, int losing, Integer target, boolean atOnce) {
        return new Verdict(true, seat, target, "seat " + seat + " wins, " + winning + " to " + losing, atOnce);
    }
}
