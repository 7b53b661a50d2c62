package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.GameEntity.Mode;

class MatchVisibilityTest {

    @Test
    void aMatchsSeedIsShownOnlyOnceTheMatchHasFinished() {
        assertFalse(MatchVisibility.seedShown(false));
        assertTrue(MatchVisibility.seedShown(true));
    }

    @Test
    void theAiPlaysWithinTheRoundThePersonHasBeenDealt() {
        // round 0 for both: the AI places its first two pieces, not the third (it would deal round 1)
        assertTrue(MatchVisibility.aiMayPlay(0, 3, 0, false));
        assertTrue(MatchVisibility.aiMayPlay(0, 2, 0, false));
        assertFalse(MatchVisibility.aiMayPlay(0, 1, 0, false));
        // the person is in round 1: the AI may complete round 0, then waits again before completing round 1
        assertTrue(MatchVisibility.aiMayPlay(0, 1, 1, false));
        assertTrue(MatchVisibility.aiMayPlay(1, 2, 1, false));
        assertFalse(MatchVisibility.aiMayPlay(1, 1, 1, false));
        // behind the person, it catches up at its pace
        assertTrue(MatchVisibility.aiMayPlay(2, 1, 7, false));
    }

    @Test
    void theAiPlaysOnOnceThePersonsGameHasEnded() {
        assertTrue(MatchVisibility.aiMayPlay(0, 1, 0, true));
        assertTrue(MatchVisibility.aiMayPlay(9, 1, 3, true));
    }

    @Test
    void anOpponentAheadIsShownAsAtTheEndOfTheViewersRound() {
        assertEquals(OptionalInt.of(2), MatchVisibility.gridShownUpTo(Mode.ONLINE_RACE, false, false, 2, 3));
        assertEquals(OptionalInt.of(0), MatchVisibility.gridShownUpTo(Mode.ONLINE_RACE, false, false, 0, 9));
        assertEquals(OptionalInt.of(4), MatchVisibility.gridShownUpTo(Mode.VERSUS_AI, false, false, 4, 5));
    }

    @Test
    void anOpponentInTheViewersRoundOrBehindIsShownLive() {
        assertEquals(OptionalInt.empty(), MatchVisibility.gridShownUpTo(Mode.ONLINE_RACE, false, false, 3, 3));
        assertEquals(OptionalInt.empty(), MatchVisibility.gridShownUpTo(Mode.ONLINE_RACE, false, false, 3, 1));
    }

    @Test
    void everythingIsShownOnceTheViewersGameOrTheMatchHasEnded() {
        assertEquals(OptionalInt.empty(), MatchVisibility.gridShownUpTo(Mode.ONLINE_RACE, false, true, 2, 8));
        assertEquals(OptionalInt.empty(), MatchVisibility.gridShownUpTo(Mode.ONLINE_RACE, true, false, 2, 8));
        assertEquals(OptionalInt.empty(), MatchVisibility.gridShownUpTo(Mode.VERSUS_AI, false, true, 2, 8));
    }

    @Test
    void twoPlayersOnOneDeviceAndSoloAreNotHeldBack() {
        assertEquals(OptionalInt.empty(), MatchVisibility.gridShownUpTo(Mode.TWO_PLAYERS, false, false, 0, 5));
        assertFalse(MatchVisibility.holdsBack(Mode.TWO_PLAYERS));
        assertFalse(MatchVisibility.holdsBack(Mode.SOLO));
        assertTrue(MatchVisibility.holdsBack("ONLINE_RACE"));
        assertTrue(MatchVisibility.holdsBack("VERSUS_AI"));
        assertFalse(MatchVisibility.holdsBack("CHESS"));
        assertFalse(MatchVisibility.holdsBack((String) null));
    }
}
