package com.bloceclat.leaderboard;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.kafka.clients.producer.ProducerRecord;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.SignedMessage;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.solver.GamePosition;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.testsupport.KafkaResource;

import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/** Finished games for the tests: honest replays played by the engine, and messages to publish them. */
public final class Games {

    private Games() {
    }

    /**
     * Test signing keys (application.properties {@code %test.bloc.signing.public-keys} trusts their public halves):
     * known to everyone, trusted by no other profile.
     */
    public static final SignedMessage.Signer SIGNER = SignedMessage.Signer.of("test-1",
            "MC4CAQAwBQYDK2VwBCIEIAbrlnwMy2znYOkAMfFfJl/Ykt6kRM4EONKKFceaGF5o");
    public static final String PUBLIC_KEY = "test-1:MCowBQYDK2VwAyEAfgrvVa1fQso+xZZgC0lEAhlYHVQwdK46Rft1/PXoP7E=";

    /** The second trusted key (a rotation: both are trusted at once). */
    public static final SignedMessage.Signer ROTATED = SignedMessage.Signer.of("test-2",
            "MC4CAQAwBQYDK2VwBCIEICHt9CRAmYJjQ7d1BaT/M6YfnGE7O5040sxRmhksus9w");

    /** A seed no other game of the test run has (one record per level and seed). */
    public static long freshSeed() {
        return ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE);
    }

    /** The first {@code rounds} rounds of a game (or all of it) as the full-strength AI plays them. */
    public static Game played(long seed, Level level, int rounds) {
        Game game = new Game(seed, level);
        while (!game.gameOver() && game.round() < rounds) {
            GamePosition position = GamePosition.of(game, Mode.HINT, SolveRequest.MAX_STRENGTH, 0);
            var solution = Solver.solve(position.request());
            for (var p : solution.best().placements()) {
                game.place(position.slotOf(p), p.row(), p.col());
            }
        }
        return game;
    }

    /** A quick game: each piece in slot order at the first cell where it fits, for up to {@code rounds} rounds. */
    public static Game quick(long seed, Level level, int rounds) {
        Game game = new Game(seed, level);
        while (!game.gameOver() && game.round() < rounds) {
            boolean placed = false;
            for (int slot = 0; slot < 3 && !placed; slot++) {
                if (!game.placed(slot)) {
                    for (int cell = 0; cell < 64 && !placed; cell++) {
                        try {
                            game.place(slot, cell / 8, cell % 8);
                            placed = true;
                        } catch (IllegalMoveException e) {
                            // try the next cell
                        }
                    }
                }
            }
        }
        return game;
    }

    public static GameFinished.Player player(String name) {
        return new GameFinished.Player("sub-" + name, name);
    }

    public static GameFinished finished(GameFinished.Player player, Replay replay) {
        return finished(UUID.randomUUID(), player, replay.toJson(), Instant.now());
    }

    public static GameFinished finished(UUID id, GameFinished.Player player, String replayJson, Instant finishedAt) {
        return GameFinished.of(id, player, GameFinished.Mode.SOLO, GameFinished.SeedSource.SERVER, null,
                finishedAt.minusSeconds(60), finishedAt, replayJson);
    }

    /** A game of any mode and seed source. */
    public static GameFinished finished(UUID id, GameFinished.Player player, GameFinished.Mode mode,
            GameFinished.SeedSource source, java.time.LocalDate day, Instant createdAt, Instant finishedAt,
            String replayJson) {
        return GameFinished.of(id, player, mode, source, day, createdAt, finishedAt, replayJson);
    }

    /** The game's message as game-service sends it: signed with {@link #SIGNER}. */
    public static ProducerRecord<String, String> message(GameFinished game) {
        return signed(game.gameId().toString(), game.toJson());
    }

    /** Any text, signed with {@link #SIGNER}. */
    public static ProducerRecord<String, String> signed(String key, String text) {
        return new ProducerRecord<>(GameFinished.CHANNEL, key, SIGNER.sign(text));
    }

    /** The game's message as someone without the key would write it: the bare JSON, no envelope. */
    public static ProducerRecord<String, String> unsigned(GameFinished game) {
        return new ProducerRecord<>(GameFinished.CHANNEL, game.gameId().toString(), game.toJson());
    }

    /** Publishes the messages, in order, and waits for the broker to have them. */
    @SafeVarargs
    public static void publish(ProducerRecord<String, String>... records) {
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings().fromRecords(records).awaitCompletion(Duration.ofSeconds(30));
        }
    }

    public static void publish(GameFinished... games) {
        @SuppressWarnings("unchecked")
        ProducerRecord<String, String>[] records = new ProducerRecord[games.length];
        for (int i = 0; i < games.length; i++) {
            records[i] = message(games[i]);
        }
        publish(records);
    }
}
