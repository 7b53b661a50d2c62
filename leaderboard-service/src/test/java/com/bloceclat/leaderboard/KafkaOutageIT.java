package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kafka is not on a request's path: with the broker gone, the packaged service keeps serving leaderboards, stays
 * ready (a Kafka restart must not take every replica out of its Service) and live, and a replica started meanwhile
 * passes its startup probe. Before, readiness and startup had a check per Kafka channel, and readiness the broker.
 */
class KafkaOutageIT {

    static PackagedService service;

    @BeforeAll
    static void infrastructure() {
        service = new PackagedService(Path.of("target", "kafka-outage-it"));
    }

    @AfterAll
    static void tearDown() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void withTheBrokerGoneTheServiceServesStaysReadyAndAReplicaStartsMeanwhile() throws Exception {
        service.start();
        service.stopKafka();
        // the clients notice a broker gone within a few seconds; give them that, then ask
        PackagedService.sleep(5_000);
        servesAndPassesEveryProbe(service.baseUrl());
        try (PackagedService replica = service.replica(Path.of("target", "kafka-outage-it", "replica"))) {
            replica.start();
            servesAndPassesEveryProbe(replica.baseUrl());
        }
    }

    private static void servesAndPassesEveryProbe(String base) throws Exception {
        for (String probe : List.of("/q/health/started", "/q/health/ready", "/q/health/live")) {
            HttpResponse<String> answer = get(base + probe);
            assertEquals(200, answer.statusCode(), probe + ": " + answer.body());
        }
        assertEquals(200, get(base + "/api/leaderboards/HARD").statusCode());
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
