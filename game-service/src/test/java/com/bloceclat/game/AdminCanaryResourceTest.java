package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.game.messaging.CanaryPublisher;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

@QuarkusTest
class AdminCanaryResourceTest {

    @Test
    void anonymousIsRefusedAndPlayerIsForbidden() {
        given().when().post("/api/admin/canary").then().statusCode(401);
        given().auth().oauth2(Tokens.player("bob"))
                .when().post("/api/admin/canary")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("status", equalTo(403));
    }

    @Test
    void adminCanaryLandsOnTheTopicKeyedById() throws Exception {
        Instant before = Instant.now();
        String id = given().auth().oauth2(Tokens.admin("root"))
                .when().post("/api/admin/canary")
                .then()
                .statusCode(202)
                .extract().path("id");
        UUID.fromString(id);

        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings()
                    .fromTopics(CanaryPublisher.CHANNEL)
                    .awaitRecords(1, Duration.ofSeconds(20));
            ConsumerRecord<String, String> record = task.getRecords().stream()
                    .filter(r -> r.key().equals(id))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no record keyed " + id + " on " + CanaryPublisher.CHANNEL));
            JsonNode value = new ObjectMapper().readTree(record.value());
            assertEquals(id, value.get("id").asText());
            Instant sentAt = Instant.parse(value.get("sentAt").asText());
            assertFalse(sentAt.isBefore(before.minusSeconds(1)), "sentAt " + sentAt + " before " + before);
        }
    }
}
