package com.bloceclat.game.service;

import java.util.OptionalInt;

import com.bloceclat.game.GameEntity;

/**
 * Nobody in a match sees the future: what a seat may be shown of its match, and when the AI may play. Pure decisions,
 * tested alone ({@code MatchVisibilityTest}); {@link MatchService}, {@link GameService} and the live updates apply
 * them.
 * <p>
 * Guarantees, while a match is playing:
 * <ul>
 * <li>No seat's seed is shown (match state, a game's state, moves, socket frames), and no replay of a seat's game is
 * served: every seat plays the match's one seed, so the seed of a seat that has ended tells the pieces still to come
 * of a seat still playing. Seeds and replays are shown once the match has finished, that is once no seat accepts a
 * move any more (every seat ended, or the referee decided the match).</li>
 * <li>Versus AI: the AI never makes the placement that completes a round while the person has not been dealt the
 * next one (its round would be ahead of the person's); it waits at the round boundary with its last piece. Once the
 * person's game has ended it plays on (the score to beat, see {@link MatchReferee}).</li>
 * <li>Versus AI and online race: the other seat's grid (board, pieces, streak, miss, the last placement) as shown to a
 * seat still playing is never from a round later than that seat's own: an opponent who is ahead is shown as their
 * board and score were at the end of the viewer's round, with no pieces; their round and status stay live.</li>
 * </ul>
 * Two players on one device is not covered by the grid rule: both seats are one device, seat 1 plays once seat 0's
 * game has ended, on the same pieces (its result is never a record).
 */
public final class MatchVisibility {

    private MatchVisibility() {
    }

    /** Whether the seeds of a match's games (and their replays) may be shown: once the match has finished. */
    public static boolean seedShown(boolean matchFinished) {
        return matchFinished;
    }

    /**
     * Versus AI: whether the AI may make its next placement.
     *
     * @param aiRound      the AI's round in progress
     * @param aiPiecesLeft its pieces still to place this round (1: the next placement completes the round, dealing the
     *                     next)
     * @param personRound  the person's round in progress
     * @param personEnded  the person's game has ended
     */
    public static boolean aiMayPlay(int aiRound, int aiPiecesLeft, int personRound, boolean personEnded) {
        return personEnded || aiPiecesLeft > 1 || aiRound + 1 <= personRound;
    }

    /**
     * The last round of the other seat's grid a viewer may be shown, or empty when it is shown as it is.
     *
     * @param mode          the match's mode
     * @param matchFinished the match has finished
     * @param viewerEnded   the viewer's own game has ended
     * @param viewerRound   the viewer's round in progress
     * @param otherRound    the other seat's round in progress, in the state to be shown
     */
    public static OptionalInt gridShownUpTo(GameEntity.Mode mode, boolean matchFinished, boolean viewerEnded,
            int viewerRound, int otherRound) {
        if (!holdsBack(mode) || matchFinished || viewerEnded || otherRound <= viewerRound) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(viewerRound);
    }

    /** The modes where one seat's grid may be held back from the other: versus AI and online race. */
    public static boolean holdsBack(GameEntity.Mode mode) {
        return mode == GameEntity.Mode.VERSUS_AI || mode == GameEntity.Mode.ONLINE_RACE;
    }

    /** {@link #holdsBack(GameEntity.Mode)} for a mode by name, as messages carry it; false for an unknown name. */
    public static boolean holdsBack(String mode) {
        for (GameEntity.Mode m : GameEntity.Mode.values()) {
            if (m.name().equals(mode)) {
                return holdsBack(m);
            }
        }
        return false;
    }
}
