package com.bloceclat.game;

import static com.bloceclat.game.Play.As;
import static com.bloceclat.game.Play.Started;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.testsupport.KafkaResource;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * Lean writes (docs/game-service.md): a move's event, its outbox row and the game's row are written by plain JDBC in
 * one statement, on the transaction's own connection, so a rollback removes them like any other write. Here the
 * move's transaction fails at its commit, after that statement succeeded: a deferred constraint trigger refuses the
 * update of the game's row. The move leaves no event and no {@code game-events} message (written on a connection of
 * their own, they would stay); played again it is stored and published once.
 */
@QuarkusTest
class LeanWritesTest {

    @Test
    void aMoveRolledBackAfterItsInsertsLeavesNeitherItsEventNorItsMessage() {
        Started g = Play.create(As.guest(null), "EASY", 4242);
        UUID id = UUID.fromString(g.id());
        GameMessagesTest.awaitAllSent(g.id());
        int[] m = Play.firstLegal(g.shadow());

        refuseUpdatesOf(id, true);
        try {
            // a database error at commit that is not the database being away: the server's fault, 500
            Play.move(g, 1, m[0], m[1], m[2]).statusCode(500).contentType("application/problem+json");
        } finally {
            refuseUpdatesOf(id, false);
        }
        assertEquals(0L, (long) QuarkusTransaction.requiringNew().call(() -> GameEvent.count("gameId", id)),
                "the rolled-back move's event row is gone");
        // (alone this could also mean sent and deleted already by the relay; the topic below tells the two apart)
        assertEquals(0L, (long) QuarkusTransaction.requiringNew().call(() -> OutboxMessage.count("key", g.id())),
                "the rolled-back move's outbox row is gone");

        g.shadow().place(m[0], m[1], m[2]);
        Play.move(g, 1, m[0], m[1], m[2]).statusCode(200).body("game.version", equalTo(1));
        GameMessagesTest.awaitAllSent(g.id());
        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameChanged.CHANNEL);
            // a leaked message of the rolled-back move would have been sent before the stored one, on the same
            // partition (same key): read up to the stored one, it would be there
            await().atMost(Duration.ofSeconds(30)).until(() -> versions(task, g.id()).contains(1));
            List<Integer> versions = versions(task, g.id());
            task.close();
            assertEquals(1, versions.stream().filter(v -> v == 1).count(), "the move published once: " + versions);
            assertTrue(versions.stream().allMatch(v -> v <= 1), "nothing past the one stored move: " + versions);
        }
    }

    private static List<Integer> versions(ConsumerTask<String, String> task, String gameId) {
        return task.getRecords().stream().filter(r -> gameId.equals(r.key()))
                .map(r -> GameChanged.fromJson(r.value()).version()).sorted().toList();
    }

    /** A trigger that makes the commit of any update of this game's row fail, or its removal. */
    private static void refuseUpdatesOf(UUID id, boolean refuse) {
        String trigger = "lean_writes_test_" + id.toString().replace('-', '_');
        QuarkusTransaction.requiringNew().run(() -> {
            var em = GameEntity.getEntityManager();
            if (refuse) {
                em.createNativeQuery("CREATE OR REPLACE FUNCTION lean_writes_test_refuse() RETURNS trigger AS "
                        + "$$ BEGIN RAISE EXCEPTION 'refused by LeanWritesTest'; END $$ LANGUAGE plpgsql")
                        .executeUpdate();
                // deferred: the statement succeeds, its transaction's commit fails
                em.createNativeQuery("CREATE CONSTRAINT TRIGGER " + trigger + " AFTER UPDATE ON game "
                        + "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.id = '" + id + "') "
                        + "EXECUTE FUNCTION lean_writes_test_refuse()").executeUpdate();
            } else {
                em.createNativeQuery("DROP TRIGGER " + trigger + " ON game").executeUpdate();
            }
        });
    }
}
