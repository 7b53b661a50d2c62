package com.bloceclat.leaderboard.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "bloc.leaderboard")
public interface LeaderboardConfig {

    /** Entries per page when the caller does not say. */
    @WithDefault("20")
    int defaultPageSize();

    /** The largest page a caller may ask for. */
    @WithDefault("100")
    int maxPageSize();

    /**
     * The last page number a caller may ask for (pages count from 0): with {@link #maxPageSize} it bounds the rows one
     * page reads ({@code OFFSET}), for every caller.
     */
    @WithDefault("100")
    int maxPage();

    /**
     * How far in the future a game's {@code finishedAt} may be when it is judged (the two services' clocks differ);
     * later is REJECTED ({@code RecordPolicy}).
     */
    @WithDefault("2m")
    Duration clockSkew();

    /**
     * The largest {@code game-finished} value read, in bytes as received (after Kafka's decompression): game-service's
     * producer sends nothing larger ({@code max.request.size}, 16 MiB; the cap on a game's events keeps a real one
     * under 7 MiB). A larger value is refused as {@code too large} before anything parses it.
     */
    @WithDefault("16777216")
    int maxMessageBytes();

    /**
     * The longest {@code game-finished} key read, in bytes: game-service keys by game id (36 characters). A longer
     * key is refused as {@code key too large}, and a dead letter carries at most this much of a key.
     */
    @WithDefault("1024")
    int maxKeyBytes();

    /**
     * How long a graceful stop waits for the {@code game-finished} batch being stored to commit before the database
     * closes; a batch still storing then is left unacknowledged, for the next consumer.
     */
    @WithDefault("20s")
    Duration shutdownDrain();

    /**
     * The reads of the boards one client may make a second on this replica, on average ({@code ReadRate}: a player by
     * token, anyone else by address); past it, and past {@link #readsBurstPerClient} at once, a read is refused with
     * 429 and {@code Retry-After}.
     */
    @WithDefault("10")
    int readsPerSecondPerClient();

    /** How many reads one client may make at once before {@link #readsPerSecondPerClient} applies. */
    @WithDefault("50")
    int readsBurstPerClient();

    /** How long the refused trail keeps its rows ({@code RefusedRetention}). */
    Refused refused();

    interface Refused {

        /** A refused message older than this (by {@code refused_at}) is deleted. */
        @WithDefault("P30D")
        Duration retention();

        /** At most this many refused messages are kept: beyond it, the oldest go first. */
        @WithDefault("100000")
        int maxRows();

        /** How often each replica prunes (the Quarkus scheduler; {@code off} never). */
        @WithDefault("1h")
        String pruneEvery();

        /** Rows deleted per transaction. */
        @WithDefault("1000")
        int batchSize();
    }

    /** How long audits of games that are not records are kept ({@code AuditRetention}). */
    Audits audits();

    interface Audits {

        /**
         * An audit of a game that is not a record (a guest's, an assisted, a rejected, a duplicate game...) whose game
         * finished longer ago than this is deleted, with its admins' actions. Records keep their audits.
         */
        @WithDefault("P90D")
        Duration retention();

        /** How often each replica prunes (the Quarkus scheduler; {@code off} never). */
        @WithDefault("1h")
        String pruneEvery();

        /** Audits deleted per transaction. */
        @WithDefault("500")
        int batchSize();
    }

    /** The second judging of games rejected for a game-service clock that ran ahead ({@code ClockAheadRecovery}). */
    ClockAhead clockAhead();

    interface ClockAhead {

        /** How often each replica looks for them (the Quarkus scheduler; {@code off} never). */
        @WithDefault("1m")
        String every();

        /** Games judged again per transaction (a record's is measured by the cheat detector too: seconds each). */
        @WithDefault("10")
        int batchSize();
    }

    /** The cheat detector ({@code CheatDetector}). */
    Suspicion suspicion();

    interface Suspicion {

        /** Whether this replica's background worker measures records (the re-validation measures regardless). */
        @WithDefault("true")
        boolean enabled();

        /** Fewer compared rounds than this and a game is never flagged (nor measured). */
        @WithDefault("20")
        int minRounds();

        /** The share of rounds played exactly as the AI would have at and above which a game is suspicious. */
        @WithDefault("0.9")
        double threshold();

        /** The pause between two passes of the worker over the records not measured yet. */
        @WithDefault("5s")
        Duration interval();

        /** Records measured per transaction (their rows stay locked meanwhile, skipped by other replicas). */
        @WithDefault("4")
        int batchSize();

        /**
         * At most this many rounds of a record are compared with the AI (a search each, about 7.5 ms), drawn at random
         * from a longer one: a record of any length costs the worker a few seconds, and a batch well under its
         * transaction's 600 s.
         */
        @WithDefault("500")
        int maxComparedRounds();
    }
}
