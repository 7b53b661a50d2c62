package com.bloceclat.leaderboard.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/**
 * A poll of game-finished records is read and stored a part at a time, each part at most the largest message in all
 * (a record larger alone), so that a poll of long games is never all parsed at once: it was more than the heap.
 */
class PollPartsTest {

    private static final int MB = 1_000_000;

    @Test
    void aPollIsCutWhereTheNextRecordWouldTakeAPartPastTheBound() {
        // fifteen long games of 6 MB each: two to a part of 16 MB
        int[] longGames = new int[15];
        java.util.Arrays.fill(longGames, 6 * MB);
        assertArrayEquals(new int[] {2, 4, 6, 8, 10, 12, 14, 15}, GameFinishedConsumer.parts(longGames, 16 * MB));
        // short games: one part
        assertArrayEquals(new int[] {500}, GameFinishedConsumer.parts(new int[500], 16 * MB));
        assertArrayEquals(new int[] {3}, GameFinishedConsumer.parts(new int[] {1_000, 2_000, 3_000}, 16 * MB));
    }

    @Test
    void aRecordLargerThanTheBoundGoesAloneAndNothingIsLeftOut() {
        assertArrayEquals(new int[] {1, 2, 4}, GameFinishedConsumer.parts(new int[] {10, 40 * MB, 10, 10}, 16 * MB));
        assertArrayEquals(new int[] {1, 2}, GameFinishedConsumer.parts(new int[] {40 * MB, 40 * MB}, 16 * MB));
        assertArrayEquals(new int[] {}, GameFinishedConsumer.parts(new int[] {}, 16 * MB));
    }
}
