package com.bloceclat.leaderboard.service;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;

import com.bloceclat.common.events.GameFinished.Mode;
import com.bloceclat.common.events.GameFinished.SeedSource;
import com.bloceclat.leaderboard.Outcome;

/**
 * The record policy: the one place that decides what a validated game earns (docs/leaderboard-service.md "Record
 * policy"). Pure: the same facts always get the same decision; what the database knows (does the seed already hold a
 * record, has the player already played the day's challenge) comes in as {@link Board} facts, looked up by the
 * caller.
 *
 * <p>Guarantees, given facts game-service signed ({@code mode}, player, {@code seedSource}, {@code day}, the two
 * instants) and a replay the engine validated:
 * <ul>
 * <li>a RECORD is a SOLO game of a logged-in player, unassisted, on a seed nobody could know before it was dealt:
 * SERVER (on the level's boards) or DAILY (on the day's daily board);</li>
 * <li>claims are sane: {@code finishedAt} is not after now plus {@code skew} nor before {@code createdAt}; a daily
 * game's day has begun and the game was not created before it (else REJECTED);</li>
 * <li>one record per (level, seed) of a server seed: the same seed again is a DUPLICATE;</li>
 * <li>one daily record per player, day and level: only the player's first started daily game of them can count
 * (game-service signs the others as {@code practice}); of games without that word, the first judged counts;</li>
 * <li>a daily game counts only if it finished within its UTC day: once the day is over its seed is shown with the
 * day's other finished games, so a game still played after midnight could be played with foresight.</li>
 * </ul>
 * Checks run in this order, the first that applies decides: replay invalid, claims, mode, guest, assistance, seed
 * source, then the board.
 */
public final class RecordPolicy {

    public static final String GUEST = Verdict.GUEST;
    public static final String ASSISTED = Verdict.ASSISTED;
    /**
     * A game ended (resigned) before its first piece: no play to rank. As a record, a loop of them put a score of 0 on
     * the boards 60 times a minute per account (game-service's starts limit).
     */
    public static final String EMPTY = "empty: no piece was placed";
    public static final String CHOSEN = "chosen seed: a game on a seed someone picked (a challenge link) may be known "
            + "in advance and never counts";
    public static final String UNKNOWN_SOURCE = "unknown seed source";

    private RecordPolicy() {
    }

    /** Where a record goes: its level's boards, or one day's daily board. */
    public enum Board {
        LEVEL, DAILY
    }

    /**
     * What game-service vouched for about the game.
     *
     * @param seedSource null for a game received before schema 2 (judged as {@link SeedSource#SERVER}: re-validation)
     * @param practice   a daily game its player started after another daily game of that day and level: never counts
     */
    public record Facts(Mode mode, boolean loggedIn, SeedSource seedSource, LocalDate day, boolean practice,
            Instant createdAt, Instant finishedAt) {
    }

    /**
     * What the boards hold already, as far as this game is concerned.
     *
     * @param seedHolder  the game whose record holds this game's (level, seed) on the level boards, or null
     * @param dailyHolder the game that is the player's daily record of this game's day and level, or null
     */
    public record Taken(UUID seedHolder, UUID dailyHolder) {
        public static final Taken NOTHING = new Taken(null, null);
    }

    /** The decision: an outcome, why (null for a record), and the board of a record (null otherwise). */
    public record Decision(Outcome outcome, String reason, Board board) {
        static Decision record(Board board) {
            return new Decision(Outcome.RECORD, null, board);
        }

        static Decision not(Outcome outcome, String reason) {
            return new Decision(outcome, reason, null);
        }
    }

    /**
     * Decides what a game earns.
     *
     * @param verdict the engine's verdict on the replay (only its validity and assistance are read)
     * @param now     when the game is judged
     * @param skew    how far in the future {@code finishedAt} may be (clocks of the two services differ)
     */
    /**
     * Whether a rejection's reason is that of a {@code finishedAt} in the future alone (the first claim checked after
     * the replay: a game-service clock that ran ahead), which {@code ClockAheadRecovery} judges again once its time
     * has come. Its SQL twin is {@code ClockAheadRecovery.AHEAD}, a LIKE pattern that must stay the partial index's
     * predicate word for word.
     */
    static boolean inTheFuture(String reason) {
        return reason != null && reason.startsWith(FUTURE) && reason.contains(FUTURE_MARK);
    }

    private static final String FUTURE = "claims: finishedAt ";

    private static final String FUTURE_MARK = " is in the future ";

    public static Decision decide(Verdict verdict, Facts facts, Taken taken, Instant now, Duration skew) {
        if (verdict.outcome() == Outcome.REJECTED) {
            return Decision.not(Outcome.REJECTED, verdict.reason());
        }
        Instant latest = now.plus(skew);
        if (facts.finishedAt().isAfter(latest)) {
            return Decision.not(Outcome.REJECTED, FUTURE + facts.finishedAt() + FUTURE_MARK
                    + "(judged at " + now + ", skew " + skew + ")");
        }
        if (facts.createdAt() != null && facts.finishedAt().isBefore(facts.createdAt())) {
            return Decision.not(Outcome.REJECTED, "claims: finishedAt " + facts.finishedAt() + " is before createdAt "
                    + facts.createdAt());
        }
        if (facts.seedSource() == SeedSource.DAILY) {
            if (facts.day() == null) {
                return Decision.not(Outcome.REJECTED, "claims: a daily game without its day");
            }
            if (facts.day().atStartOfDay().toInstant(ZoneOffset.UTC).isAfter(latest)) {
                return Decision.not(Outcome.REJECTED, "claims: daily game of " + facts.day() + ", a day not begun "
                        + "(judged at " + now + ")");
            }
            if (facts.createdAt() != null && facts.createdAt().plus(skew)
                    .isBefore(facts.day().atStartOfDay().toInstant(ZoneOffset.UTC))) {
                return Decision.not(Outcome.REJECTED, "claims: daily game of " + facts.day() + " created before that "
                        + "day, at " + facts.createdAt());
            }
        }
        if (facts.mode() != Mode.SOLO) {
            return Decision.not(Outcome.VALID_NOT_ELIGIBLE, notSolo(facts.mode()));
        }
        if (!facts.loggedIn()) {
            return Decision.not(Outcome.VALID_NOT_ELIGIBLE, GUEST);
        }
        if (verdict.assisted()) {
            return Decision.not(Outcome.VALID_NOT_ELIGIBLE, ASSISTED);
        }
        if (verdict.validEvents() == 0) {
            return Decision.not(Outcome.VALID_NOT_ELIGIBLE, EMPTY);
        }
        SeedSource source = facts.seedSource() == null ? SeedSource.SERVER : facts.seedSource();
        return switch (source) {
            case CHOSEN -> Decision.not(Outcome.VALID_NOT_ELIGIBLE, CHOSEN);
            case DAILY -> finishedLate(facts) ? Decision.not(Outcome.VALID_NOT_ELIGIBLE, late(facts.day()))
                    : facts.practice() ? Decision.not(Outcome.VALID_NOT_ELIGIBLE, startedSecond(facts.day(),
                            verdict.level()))
                    : taken.dailyHolder() == null ? Decision.record(Board.DAILY)
                    : Decision.not(Outcome.VALID_NOT_ELIGIBLE, practice(facts.day(), verdict.level(),
                            taken.dailyHolder()));
            case SERVER -> taken.seedHolder() == null ? Decision.record(Board.LEVEL)
                    : Decision.not(Outcome.DUPLICATE, duplicate(verdict.level(), verdict.seed(),
                            taken.seedHolder()));
        };
    }

    private static boolean finishedLate(Facts facts) {
        return !facts.finishedAt().isBefore(facts.day().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    }

    public static String startedSecond(LocalDate day, String level) {
        return "practice: the player had started another daily game of " + day + " (" + level + ") before this one, "
                + "and only the first started one counts";
    }

    public static String late(LocalDate day) {
        return "late: the daily challenge of " + day + " finished after its day was over, when its seed could be read "
                + "from that day's other games";
    }

    public static String notSolo(Mode mode) {
        return "mode " + mode + ": matches have results (won or lost), not records";
    }

    public static String practice(LocalDate day, String level, UUID holder) {
        return "practice: the player's daily challenge of " + day + " (" + level + ") already counted with game "
                + holder;
    }

    public static String duplicate(String level, Long seed, UUID holder) {
        return "duplicate: seed " + seed + " of " + level + " already holds the record of game " + holder;
    }
}
