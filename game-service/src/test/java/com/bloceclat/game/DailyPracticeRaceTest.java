package com.bloceclat.game;

import static com.bloceclat.game.Play.As;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.game.service.DailyChallenge;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * A player's first daily game of a day and level counts; a start of another of that day and level with
 * {@code "practice": true} while the first is in play makes the first practice ({@code game.daily_practice},
 * {@code GameEntity.practiceDailiesInPlay}), and a move that ends the first and commits first leaves it counted
 * (docs/game-service.md "The daily challenge", docs/security.md). On PostgreSQL, round after round, the placement that
 * ends a player's first daily game and a practice start of the same day and level are sent over REST from two threads
 * at the same moment, and then exactly one of these holds: the first game counted (stored {@code daily_practice}
 * false, the move's answer and its signed {@code game-finished} saying practice false), or it was made practice first
 * (all three saying true); the new game is practice either way, so the player never has two games that count. Never a
 * finished game whose stored flag and published message disagree. The move's thread waits a little longer each round
 * ({@link #delayMicros}) so that the requests meet at varied points of each other's work; the rounds of each order are
 * printed (both are seen in a run, not asserted). It fails at once with the demoting {@code UPDATE}'s
 * {@code status = 'PLAYING'} taken out, and with the games to demote selected first and then updated by id (no
 * re-check of the row after waiting for the move's lock), which only a race tells apart.
 */
@QuarkusTest
class DailyPracticeRaceTest {

    private static final int ROUNDS = 30;

    /** DIABOLICAL: the first legal placement each time ends a game in about ten placements. */
    private static final Level LEVEL = Level.DIABOLICAL;

    @Test
    void aMoveEndingTheFirstDailyGameAndAPracticeStartAtOnceEitherCountItOrMakeItPracticeNeverHalfOfEach()
            throws Exception {
        Map<String, Boolean> practiceOfFirst = new LinkedHashMap<>();
        int counted = 0;
        int demoted = 0;
        int skipped = 0;
        StringBuilder orders = new StringBuilder(); // by round: C counted, P made practice, - skipped
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String name = "daily-race-" + round + "-" + UUID.randomUUID();
                As player = As.player(Tokens.player(name));
                ExtractableResponse<Response> created = start(player, false).then().statusCode(201).extract();
                String first = created.path("id");
                assertEquals(false, created.path("practice"));
                LocalDate day = LocalDate.parse(created.path("day"));
                // the day's game on the engine: placed as the service will place it, up to the placement that ends it
                Game shadow = new Game(DailyChallenge.seed(TestKeys.dailySecret(), day, LEVEL), LEVEL);
                Play.Started g = new Play.Started(first, player, shadow);
                int moveNumber = 1;
                int[] last = Play.firstLegal(shadow);
                while (!ends(shadow, last)) {
                    Play.playOne(g, moveNumber++);
                    last = Play.firstLegal(shadow);
                }

                int[] ending = last;
                int number = moveNumber;
                long delay = delayMicros(round);
                CyclicBarrier together = new CyclicBarrier(2);
                Future<ExtractableResponse<Response>> move = two.submit(() -> {
                    together.await();
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(delay));
                    return Play.move(g, number, ending[0], ending[1], ending[2]).extract();
                });
                Future<ExtractableResponse<Response>> practice = two.submit(() -> {
                    together.await();
                    return start(player, true).then().extract();
                });
                ExtractableResponse<Response> moved = move.get(30, TimeUnit.SECONDS);
                ExtractableResponse<Response> second = practice.get(30, TimeUnit.SECONDS);

                assertEquals(200, moved.statusCode(), moved.asString());
                assertEquals(true, moved.path("move.gameOver"), moved.asString());
                assertEquals("OVER", moved.path("game.status"));
                assertEquals(201, second.statusCode(), second.asString());
                if (!day.equals(LocalDate.parse(second.path("day")))) {
                    skipped++; // midnight UTC came between the two starts: another day's first game
                    orders.append('-');
                    continue;
                }
                // only the first started daily game of a day and level may count: the second is practice, always
                assertEquals(true, second.path("practice"), second.asString());

                Object[] row = row(first);
                assertEquals("OVER", row[0]);
                boolean stored = (Boolean) row[1];
                assertEquals(stored, moved.path("game.practice"),
                        "round " + round + ": the move's answer and the stored flag of " + first);
                practiceOfFirst.put(first, stored);
                orders.append(stored ? 'P' : 'C');
                if (stored) {
                    demoted++;
                } else {
                    counted++;
                }
                // two daily games of the day and level, and the first alone counts, or none: never two
                assertEquals(List.of(2L, stored ? 0L : 1L), counts("sub-" + name, day),
                        "round " + round + ": the player's daily games of " + LEVEL + " on " + day + ", and those that "
                                + "count");
            }
        } finally {
            two.shutdownNow();
        }
        System.out.printf("DailyPracticeRaceTest: %d rounds: the move first, the first game counted: %d; the practice "
                + "start first, the first game made practice: %d; skipped (midnight UTC): %d; by round (the move "
                + "0.5 ms later each round, 20 a cycle): %s%n", ROUNDS, counted, demoted, skipped, orders);

        for (String id : practiceOfFirst.keySet()) {
            GameMessagesTest.awaitAllSent(id);
        }
        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(30)).until(() -> practiceOfFirst.keySet().stream()
                    .allMatch(id -> !ofGame(task.getRecords(), id).isEmpty()));
            List<ConsumerRecord<String, String>> records = new ArrayList<>(task.getRecords());
            task.close();
            for (Map.Entry<String, Boolean> first : practiceOfFirst.entrySet()) {
                List<ConsumerRecord<String, String>> mine = ofGame(records, first.getKey());
                assertEquals(1, mine.size(), "game-finished records of " + first.getKey());
                GameFinished message = GameFinished.fromJson(TestKeys.open(mine.get(0).value()));
                assertEquals(GameFinished.SeedSource.DAILY, message.seedSource());
                assertEquals(first.getValue(), message.practice(), "game " + first.getKey() + ": the signed "
                        + "game-finished against the stored daily_practice");
            }
        }
        assertEquals(ROUNDS, counted + demoted + skipped);
        assertTrue(counted + demoted > 0);
    }

    /**
     * How long the move's thread waits after the barrier in {@code round}: 0 to 9.5 ms by half-milliseconds, then
     * again, so that the placement reaches PostgreSQL at varied points of the start's work there.
     */
    private static long delayMicros(int round) {
        return (round % 20) * 500L;
    }

    /** Whether placement {@code m} ({slot, row, col}) ends {@code game}. */
    private static boolean ends(Game game, int[] m) {
        Game after = game.copy();
        after.place(m[0], m[1], m[2]);
        return after.gameOver();
    }

    private static Response start(As player, boolean practice) {
        return player.spec().contentType(ContentType.JSON).body("{\"level\": \"" + LEVEL + "\", \"daily\": true"
                + (practice ? ", \"practice\": true" : "") + "}").when().post("/api/games");
    }

    /** The game's stored status and daily_practice. */
    private static Object[] row(String id) {
        return QuarkusTransaction.requiringNew().call(() -> (Object[]) GameEntity.getEntityManager()
                .createNativeQuery("SELECT status, daily_practice FROM game WHERE id = :id")
                .setParameter("id", UUID.fromString(id)).getSingleResult());
    }

    /** How many daily games of the level the player has on {@code day}, and how many of them are not practice. */
    private static List<Long> counts(String subject, LocalDate day) {
        Object[] counts = QuarkusTransaction.requiringNew().call(() -> (Object[]) GameEntity.getEntityManager()
                .createNativeQuery("SELECT count(*), count(*) FILTER (WHERE NOT daily_practice) FROM game "
                        + "WHERE owner_subject = :s AND daily_day = :d AND level = :l AND seed_source = 'DAILY'")
                .setParameter("s", subject).setParameter("d", day).setParameter("l", LEVEL.name())
                .getSingleResult());
        return List.of(((Number) counts[0]).longValue(), ((Number) counts[1]).longValue());
    }

    private static List<ConsumerRecord<String, String>> ofGame(List<ConsumerRecord<String, String>> records,
            String gameId) {
        return records.stream().filter(r -> gameId.equals(r.key())).toList();
    }
}
