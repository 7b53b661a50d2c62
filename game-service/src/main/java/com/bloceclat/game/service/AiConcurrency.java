package com.bloceclat.game.service;

/**
 * How many AI turns one replica may have asking solver-service at once: additive increase, multiplicative decrease
 * (AIMD), from what the solver client answers. A pure decision returned as a value, tested alone
 * ({@code AiConcurrencyTest}); {@link AiDriver} keeps the current one.
 * <ul>
 * <li>An answer while turns were waiting for a permit (the limit was what held them back) raises the limit by
 * {@code 1/limit}: about one more permit per round of answers, as TCP's congestion window grows.</li>
 * <li>An answer while no turn was waiting leaves it: spare permits that are not used prove nothing.</li>
 * <li>A sign of a full solver fleet (every attempt answered 429 or 503, timed out or could not connect) halves it,
 * at most once per {@link #COOL_DOWN_NANOS} (the answers of turns already asked at the old limit say nothing new),
 * never below {@code min}.</li>
 * </ul>
 *
 * @param limit       the current limit; {@link #permits()} is its whole part
 * @param lastCutNanos {@code System.nanoTime()} of the last decrease
 * @param min         the lowest limit (at least 1: the AI never stops asking altogether)
 * @param max         the highest limit
 */
public record AiConcurrency(double limit, long lastCutNanos, int min, int max) {

    /** The shortest time between two decreases. */
    public static final long COOL_DOWN_NANOS = 200_000_000L;

    public AiConcurrency {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("need 1 <= min <= max, got min " + min + ", max " + max);
        }
        limit = Math.max(min, Math.min(max, limit));
    }

    /** A first limit, not cut yet. */
    public static AiConcurrency start(int initial, int min, int max, long nowNanos) {
        return new AiConcurrency(initial, nowNanos - COOL_DOWN_NANOS, min, max);
    }

    /** How many turns may be asking at once. */
    public int permits() {
        return (int) limit;
    }

    /**
     * How many games a replica at this limit can play at the pace (Little's law: each permit plays one turn per
     * {@code turnNanos}, each game wants one turn per {@code paceNanos}), at most {@code maxGames}, and never fewer
     * than {@link #permits()}: when turns take longer than the pace the games are late, but a replica holding none
     * would get no answer to raise its limit with, and its AI games would never play again.
     */
    public int games(long paceNanos, double turnNanos, int maxGames) {
        double perPermit = paceNanos / Math.max(turnNanos, 1_000_000);
        return (int) Math.min(maxGames, Math.max(permits(), permits() * perPermit));
    }

    /**
     * Whether a replica holding {@code held} games (this one among them) that can play {@code capacity} keeps a game
     * after its placement: always within capacity; over it, only mid-round. A game moved mid-round loses its round's
     * plan, and its next replica asks the solver again (under load, two replicas letting games go after any placement
     * made 0.6 searches a placement, against 0.34 letting them go at a round's end).
     */
    public static boolean keeps(int held, int capacity, boolean midRound) {
        return held <= capacity || midRound;
    }

    /** The solver answered; {@code othersWaiting}: turns were waiting for a permit meanwhile. */
    public AiConcurrency afterAnswer(boolean othersWaiting) {
        if (!othersWaiting || limit >= max) {
            return this;
        }
        return new AiConcurrency(limit + 1.0 / limit, lastCutNanos, min, max);
    }

    /** The solver fleet was full or away (429, 503, a timeout, no connection). */
    public AiConcurrency afterBusy(long nowNanos) {
        if (nowNanos - lastCutNanos < COOL_DOWN_NANOS) {
            return this;
        }
        return new AiConcurrency(limit / 2, nowNanos, min, max);
    }
}
