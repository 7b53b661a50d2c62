package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AiConcurrencyTest {

    private static final long T0 = 1_000_000_000L;

    @Test
    void answersWhileTurnsWaitRaiseTheLimitByAboutOnePermitPerRoundOfAnswers() {
        AiConcurrency c = AiConcurrency.start(4, 1, 64, T0);
        assertEquals(4, c.permits());
        for (int i = 0; i < 5; i++) {
            c = c.afterAnswer(true);
        }
        assertEquals(5, c.permits(), "about one round of answers at a limit of 4 adds one permit");
        for (int i = 0; i < 1000; i++) {
            c = c.afterAnswer(true);
        }
        assertEquals(45, c.permits(), "additive: the square root of twice the answers, not their number");
    }

    @Test
    void aReplicaOverCapacityLetsAGameGoAtItsRoundsEndNotMidRound() {
        assertTrue(AiConcurrency.keeps(10, 10, false), "within capacity");
        assertTrue(AiConcurrency.keeps(3, 10, true));
        assertTrue(AiConcurrency.keeps(11, 10, true), "mid-round: the next replica would lose the round's plan");
        assertFalse(AiConcurrency.keeps(11, 10, false), "at the round's end: nothing to lose");
    }

    @Test
    void answersWithSparePermitsLeaveTheLimit() {
        AiConcurrency c = AiConcurrency.start(8, 1, 64, T0);
        assertSame(c, c.afterAnswer(false));
    }

    @Test
    void aFullSolverFleetHalvesTheLimitOncePerCoolDownAndNeverBelowTheMinimum() {
        AiConcurrency c = AiConcurrency.start(32, 2, 64, T0);
        c = c.afterBusy(T0);
        assertEquals(16, c.permits());
        // the other turns asked at the old limit fail too: one cut for all of them
        assertSame(c, c.afterBusy(T0 + AiConcurrency.COOL_DOWN_NANOS - 1));
        long t = T0;
        for (int i = 0; i < 10; i++) {
            t += AiConcurrency.COOL_DOWN_NANOS;
            c = c.afterBusy(t);
        }
        assertEquals(2, c.permits());
    }

    @Test
    void theLimitStaysWithinItsBounds() {
        AiConcurrency c = AiConcurrency.start(64, 1, 64, T0);
        assertSame(c, c.afterAnswer(true));
        assertEquals(64, AiConcurrency.start(500, 1, 64, T0).permits());
        assertEquals(1, AiConcurrency.start(0, 1, 64, T0).permits());
        assertThrows(IllegalArgumentException.class, () -> AiConcurrency.start(4, 0, 64, T0));
        assertThrows(IllegalArgumentException.class, () -> AiConcurrency.start(4, 8, 4, T0));
    }

    @Test
    void aReplicaHoldsTheGamesItCanPlayAtThePaceAndNeverFewerThanItsPermits() {
        AiConcurrency c = AiConcurrency.start(4, 1, 64, T0);
        long pace = 1_000_000_000L;
        assertEquals(40, c.games(pace, 100_000_000, 500), "4 permits, 10 turns each per pace");
        assertEquals(500, c.games(pace, 1_000_000, 500), "at most the configured games");
        // Turns slower than the pace (a loaded solver fleet): the games are late, but the replica still holds some.
        // At 0 it would never be answered again, its limit never rise, and its AI games never play (CI, session 5).
        assertEquals(4, c.games(100_000_000, 150_000_000, 500));
        assertEquals(1, AiConcurrency.start(1, 1, 64, T0).games(100_000_000, 2e9, 500));
    }
}
