package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.leaderboard.messaging.CanaryConsumer;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

@QuarkusTest
class AdminCanaryResourceTest {

    @Test
    void anonymousIsRefusedAndPlayerIsForbidden() {
        String path = "/api/leaderboards/admin/canary/" + UUID.randomUUID();
        given().when().get(path).then().statusCode(401);
        given().auth().oauth2(Tokens.player("bob")).when().get(path).then()
                .statusCode(403)
                .contentType("application/problem+json");
    }

    @Test
    void badIdIs400AndUnknownIdIs404() {
        given().auth().oauth2(Tokens.admin("root")).when().get("/api/leaderboards/admin/canary/not-a-uuid").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("detail", equalTo("Canary id must be a UUID, got 'not-a-uuid'"));
        given().auth().oauth2(Tokens.admin("root")).when().get("/api/leaderboards/admin/canary/" + UUID.randomUUID()).then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404));
    }

    @Test
    void canaryFromKafkaIsStoredOnceAndPoisonIsSkipped() {
        UUID id = UUID.randomUUID();
        Instant sentAt = Instant.parse("2026-01-02T03:04:05.678Z");
        String json = "{\"id\":\"" + id + "\",\"sentAt\":\"" + sentAt + "\"}";
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings().fromRecords(
                    new ProducerRecord<>(CanaryConsumer.CHANNEL, "poison", "this is not a canary"),
                    new ProducerRecord<>(CanaryConsumer.CHANNEL, id.toString(), json),
                    new ProducerRecord<>(CanaryConsumer.CHANNEL, id.toString(), json))
                    .awaitCompletion(Duration.ofSeconds(20));
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.admin("root"))
                .when().get("/api/leaderboards/admin/canary/" + id)
                .then()
                .statusCode(200)
                .body("id", equalTo(id.toString())));

        OffsetDateTime storedSentAt = OffsetDateTime.parse(given().auth().oauth2(Tokens.admin("root"))
                .when().get("/api/leaderboards/admin/canary/" + id).then().extract().path("sentAt"));
        assertEquals(sentAt, storedSentAt.toInstant());

        // Both copies are consumed before a later canary; the duplicate made no second row.
        UUID later = UUID.randomUUID();
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings().fromRecords(new ProducerRecord<>(CanaryConsumer.CHANNEL, later.toString(),
                    "{\"id\":\"" + later + "\",\"sentAt\":\"" + Instant.now() + "\"}"))
                    .awaitCompletion(Duration.ofSeconds(20));
        }
        await().atMost(Duration.ofSeconds(30)).until(
                () -> QuarkusTransaction.requiringNew().call(() -> Canary.findById(later) != null));
        assertEquals(1L, QuarkusTransaction.requiringNew().call(() -> Canary.count("id", id)));
    }
}
