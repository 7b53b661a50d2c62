package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.GameEntity.Mode;
import com.bloceclat.game.service.MatchReferee.Side;
import com.bloceclat.game.service.MatchReferee.Verdict;

class MatchRefereeTest {

    @Test
    void versusAiUndecidedWhileBothPlay() {
        Verdict v = MatchReferee.judge(Mode.VERSUS_AI, new Side(500, false), new Side(900, false));
        assertFalse(v.decided());
        assertNull(v.targetScore());
    }

    @Test
    void versusAiTheFirstBlockedSetsTheScoreToBeat() {
        Verdict v = MatchReferee.judge(Mode.VERSUS_AI, new Side(300, false), new Side(420, true));
        assertFalse(v.decided());
        assertEquals(420, v.targetScore());
        Verdict equal = MatchReferee.judge(Mode.VERSUS_AI, new Side(420, false), new Side(420, true));
        assertFalse(equal.decided(), "equalling the score does not beat it");
    }

    @Test
    void versusAiBeatingTheScoreWinsAtOnce() {
        Verdict v = MatchReferee.judge(Mode.VERSUS_AI, new Side(421, false), new Side(420, true));
        assertTrue(v.decided());
        assertEquals(0, v.winnerSeat());
        assertEquals(420, v.targetScore());
        Verdict ai = MatchReferee.judge(Mode.VERSUS_AI, new Side(0, true), new Side(12, false));
        assertTrue(ai.decided());
        assertEquals(1, ai.winnerSeat());
    }

    @Test
    void versusAiALastPlacementAboveTheScoreToBeatWinsAtOnceAndTheScoreStays() {
        // the person resigned at 53 (the score to beat); the AI's last placement (game over) takes it to 57
        Verdict v = MatchReferee.judge(Mode.VERSUS_AI, new Side(53, true), new Side(57, true), 53);
        assertTrue(v.decided());
        assertEquals(1, v.winnerSeat());
        assertEquals(53, v.targetScore());
        assertTrue(v.atOnce());
        Verdict short_ = MatchReferee.judge(Mode.VERSUS_AI, new Side(53, true), new Side(50, true), 53);
        assertEquals(0, short_.winnerSeat());
        assertEquals(53, short_.targetScore());
        assertFalse(short_.atOnce());
    }

    @Test
    void versusAiBlockedShortOfTheScoreLoses() {
        Verdict v = MatchReferee.judge(Mode.VERSUS_AI, new Side(380, true), new Side(420, true));
        assertTrue(v.decided());
        assertEquals(1, v.winnerSeat());
        Verdict draw = MatchReferee.judge(Mode.VERSUS_AI, new Side(420, true), new Side(420, true));
        assertTrue(draw.decided());
        assertNull(draw.winnerSeat());
        assertEquals("draw at 420", draw.result());
    }

    @Test
    void twoPlayersAndRacesWaitForBothThenTheBestScoreWins() {
        for (Mode mode : new Mode[] {Mode.TWO_PLAYERS, Mode.ONLINE_RACE}) {
            assertFalse(MatchReferee.judge(mode, new Side(900, false), new Side(100, true)).decided(),
                    mode + ": no early win");
            Verdict v = MatchReferee.judge(mode, new Side(900, true), new Side(100, true));
            assertTrue(v.decided());
            assertEquals(0, v.winnerSeat());
            assertNull(v.targetScore());
            assertEquals("seat 0 wins, 900 to 100", v.result());
        }
    }

    @Test
    void aRacePlayerWhoLeftSetsTheScoreToBeatAndTheOtherWinsAsSoonAsItIsAhead() {
        Verdict ahead = MatchReferee.judge(Mode.ONLINE_RACE, new Side(120, false), new Side(80, true, true));
        assertTrue(ahead.decided());
        assertEquals(0, ahead.winnerSeat());
        assertEquals(80, ahead.targetScore());
        assertEquals("seat 0 wins, 120 to 80 (seat 1 left the race)", ahead.result());

        Verdict behind = MatchReferee.judge(Mode.ONLINE_RACE, new Side(80, true, true), new Side(80, false));
        assertFalse(behind.decided(), "equal is not ahead: play on");
        assertEquals(80, behind.targetScore());

        Verdict ended = MatchReferee.judge(Mode.ONLINE_RACE, new Side(80, true, true), new Side(50, true));
        assertEquals(0, ended.winnerSeat());
        assertEquals("seat 0 wins, 80 to 50 (seat 0 left the race)", ended.result());
        Verdict both = MatchReferee.judge(Mode.ONLINE_RACE, new Side(10, true, true), new Side(10, true, true));
        assertEquals("draw at 10 (both players left the race)", both.result());

        // an ordinary resignation does not: both play to the end
        assertFalse(MatchReferee.judge(Mode.ONLINE_RACE, new Side(120, false), new Side(80, true)).decided());
    }
}
