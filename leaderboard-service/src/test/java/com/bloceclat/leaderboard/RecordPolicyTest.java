package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished.Mode;
import com.bloceclat.common.events.GameFinished.SeedSource;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.leaderboard.service.RecordPolicy;
import com.bloceclat.leaderboard.service.RecordPolicy.Board;
import com.bloceclat.leaderboard.service.RecordPolicy.Decision;
import com.bloceclat.leaderboard.service.RecordPolicy.Facts;
import com.bloceclat.leaderboard.service.RecordPolicy.Taken;
import com.bloceclat.leaderboard.service.Verdict;

/** The record policy alone: every rule, each decided from facts (no database, no broker). */
class RecordPolicyTest {

    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static final Duration SKEW = Duration.ofMinutes(2);
    static final LocalDate TODAY = LocalDate.parse("2026-12-01");

    static Verdict valid;
    static Verdict assisted;
    static Verdict invalid;

    @BeforeAll
    static void replays() {
        valid = Verdict.of(Games.quick(11, Level.HARD, 3).replay().toJson());
        Game helped = Games.quick(12, Level.HARD, 3);
        helped.hintShown();
        assisted = Verdict.of(helped.replay().toJson());
        invalid = Verdict.of("{\"rulesVersion\":1}");
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, valid.outcome());
        assertNull(valid.reason(), "validated, not yet judged");
        assertEquals(Outcome.REJECTED, invalid.outcome());
    }

    static Facts solo(SeedSource source, Instant finishedAt) {
        return new Facts(Mode.SOLO, true, source, source == SeedSource.DAILY ? TODAY : null, false,
                finishedAt.minusSeconds(300), finishedAt);
    }

    static Decision decide(Verdict verdict, Facts facts) {
        return RecordPolicy.decide(verdict, facts, Taken.NOTHING, NOW, SKEW);
    }

    @Test
    void aSoloUnassistedGameOfAPlayerOnAServerSeedIsARecordOnTheLevelBoards() {
        assertEquals(new Decision(Outcome.RECORD, null, Board.LEVEL), decide(valid, solo(SeedSource.SERVER, NOW)));
    }

    /** Before, a game resigned before its first piece was a record of 0 points, 60 a minute per account. */
    @Test
    void aGameResignedBeforeItsFirstPieceIsNoRecord() {
        Verdict empty = Verdict.of(Games.quick(13, Level.HARD, 0).replay().toJson());
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, empty.outcome(), "a valid game");
        for (SeedSource source : new SeedSource[] {SeedSource.SERVER, SeedSource.DAILY}) {
            assertEquals(notEligible(RecordPolicy.EMPTY), decide(empty, solo(source, NOW)));
        }
    }

    @Test
    void theFirstDailyGameIsARecordOnTheDailyBoardAndLaterOnesArePractice() {
        assertEquals(new Decision(Outcome.RECORD, null, Board.DAILY), decide(valid, solo(SeedSource.DAILY, NOW)));
        UUID first = UUID.randomUUID();
        Decision again = RecordPolicy.decide(valid, solo(SeedSource.DAILY, NOW), new Taken(null, first), NOW, SKEW);
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, again.outcome());
        assertEquals(RecordPolicy.practice(TODAY, "HARD", first), again.reason());
        assertNull(again.board());
        // Another player's record on the same daily seed takes nothing from this one.
        assertEquals(Outcome.RECORD, RecordPolicy.decide(valid, solo(SeedSource.DAILY, NOW),
                new Taken(UUID.randomUUID(), null), NOW, SKEW).outcome());
    }

    /**
     * A daily game its player started after another of that day and level is practice, whatever became of the first:
     * before, a first attempt made with a hint or an undo (so not eligible, no record) left the board to a second
     * attempt played with the pieces it had scouted.
     */
    @Test
    void aDailyGameStartedAfterAnotherOfTheSameDayAndLevelIsPracticeEvenWithNoDailyRecord() {
        Facts second = new Facts(Mode.SOLO, true, SeedSource.DAILY, TODAY, true, NOW.minusSeconds(300), NOW);
        Decision d = decide(valid, second);
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, d.outcome());
        assertEquals(RecordPolicy.startedSecond(TODAY, "HARD"), d.reason());
        assertNull(d.board());
    }

    @Test
    void aServerSeedThatAlreadyHoldsARecordMakesADuplicate() {
        UUID holder = UUID.randomUUID();
        Decision d = RecordPolicy.decide(valid, solo(SeedSource.SERVER, NOW), new Taken(holder, null), NOW, SKEW);
        assertEquals(Outcome.DUPLICATE, d.outcome());
        assertEquals(RecordPolicy.duplicate("HARD", valid.seed(), holder), d.reason());
    }

    @Test
    void chosenSeedsMatchesGuestsAndAssistedGamesAreValidButNotEligible() {
        assertEquals(notEligible(RecordPolicy.CHOSEN), decide(valid, solo(SeedSource.CHOSEN, NOW)));
        for (Mode mode : new Mode[] {Mode.VERSUS_AI, Mode.TWO_PLAYERS, Mode.ONLINE_RACE}) {
            Facts match = new Facts(mode, true, SeedSource.SERVER, null, false, NOW.minusSeconds(60), NOW);
            assertEquals(notEligible(RecordPolicy.notSolo(mode)), decide(valid, match), mode.name());
        }
        Facts guest = new Facts(Mode.SOLO, false, SeedSource.SERVER, null, false, NOW.minusSeconds(60), NOW);
        assertEquals(notEligible(RecordPolicy.GUEST), decide(valid, guest));
        assertEquals(notEligible(RecordPolicy.ASSISTED), decide(assisted, solo(SeedSource.SERVER, NOW)));
        assertEquals(notEligible(RecordPolicy.ASSISTED), decide(assisted, solo(SeedSource.DAILY, NOW)));
    }

    @Test
    void claimsFromTheFutureOrBeforeTheGameBeganAreRejected() {
        assertEquals(Outcome.RECORD, decide(valid, solo(SeedSource.SERVER, NOW.plus(SKEW))).outcome(),
                "within the skew");
        Decision future = decide(valid, solo(SeedSource.SERVER, Instant.parse("2099-01-01T00:00:00Z")));
        assertEquals(Outcome.REJECTED, future.outcome());
        assertTrue(future.reason().startsWith("claims: finishedAt 2099-01-01T00:00:00Z is in the future"),
                future.reason());
        Facts backwards = new Facts(Mode.SOLO, true, SeedSource.SERVER, null, false, NOW, NOW.minusSeconds(1));
        assertEquals(Outcome.REJECTED, decide(valid, backwards).outcome());
        assertTrue(decide(valid, backwards).reason().contains("is before createdAt"));
        // Also for games that could never be records: a claim that is not sane is a rejection.
        Facts futureMatch = new Facts(Mode.VERSUS_AI, false,
                SeedSource.CHOSEN, null, false, NOW, NOW.plusSeconds(3600));
        assertEquals(Outcome.REJECTED, decide(valid, futureMatch).outcome());
    }

    @Test
    void aDailyGameOfADayNotBegunOrCreatedBeforeItsDayIsRejected() {
        Facts tomorrow = new Facts(Mode.SOLO, true, SeedSource.DAILY, TODAY.plusDays(1), false,
                NOW.minusSeconds(60), NOW);
        assertTrue(decide(valid, tomorrow).reason().contains("a day not begun"), decide(valid, tomorrow).reason());
        Facts early = new Facts(Mode.SOLO, true, SeedSource.DAILY, TODAY, false,
                Instant.parse("2026-11-30T20:00:00Z"), NOW);
        assertEquals(Outcome.REJECTED, decide(valid, early).outcome());
        assertTrue(decide(valid, early).reason().contains("created before that day"));
        Facts noDay = new Facts(Mode.SOLO, true, SeedSource.DAILY, null, false, NOW.minusSeconds(60), NOW);
        assertEquals(Outcome.REJECTED, decide(valid, noDay).outcome());
    }

    @Test
    void anInvalidReplayIsRejectedWithTheValidatorsReasonWhateverTheFacts() {
        Decision d = decide(invalid, solo(SeedSource.SERVER, Instant.parse("2099-01-01T00:00:00Z")));
        assertEquals(new Decision(Outcome.REJECTED, invalid.reason(), null), d);
    }

    @Test
    void gamesReceivedBeforeSchemaTwoAreJudgedAsServerSeeds() {
        Facts legacy = new Facts(Mode.SOLO, true, null, null, false, null, NOW);
        assertEquals(Outcome.RECORD, decide(valid, legacy).outcome());
    }

    private static Decision notEligible(String reason) {
        return new Decision(Outcome.VALID_NOT_ELIGIBLE, reason, null);
    }

    @Test
    void aDailyGameFinishedAfterItsDayIsOverDoesNotCount() {
        Instant afterMidnight = Instant.parse("2026-12-02T00:00:30Z");
        Facts late = new Facts(Mode.SOLO, true, SeedSource.DAILY, TODAY, false,
                Instant.parse("2026-12-01T23:50:00Z"), afterMidnight);
        assertEquals(new Decision(Outcome.VALID_NOT_ELIGIBLE, RecordPolicy.late(TODAY), null),
                RecordPolicy.decide(valid, late, Taken.NOTHING, afterMidnight, SKEW));
        Facts inTime = new Facts(Mode.SOLO, true, SeedSource.DAILY, TODAY, false,
                Instant.parse("2026-12-01T23:50:00Z"), Instant.parse("2026-12-01T23:59:59Z"));
        assertEquals(new Decision(Outcome.RECORD, null, Board.DAILY),
                RecordPolicy.decide(valid, inTime, Taken.NOTHING, afterMidnight, SKEW));
    }
}
