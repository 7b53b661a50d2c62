package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.bloceclat.solver.service.WorkerPool;

import io.quarkus.test.junit.QuarkusTest;

/** With every worker busy and the queue full, a search is refused at once with 429 and Retry-After. */
@QuarkusTest
class SaturationTest {

    @Inject
    WorkerPool pool;

    @Test
    void aFullPoolAnswers429AtOnceThenServesAgain() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<CompletionStage<Boolean>> held = new ArrayList<>();
        try {
            for (int i = 0; i < pool.capacity(); i++) {
                held.add(pool.submit(() -> {
                    try {
                        return release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }));
            }
            given().auth().oauth2(Callers.service()).contentType("application/json").body(Requests.EMPTY_BOARD)
                    .when().post("/api/solver/solve").then()
                    .statusCode(429)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1")
                    .body("status", equalTo(429));
        } finally {
            release.countDown();
        }
        for (CompletionStage<Boolean> stage : held) {
            assertTrue(stage.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
        given().auth().oauth2(Callers.service()).contentType("application/json").body(Requests.EMPTY_BOARD)
                .when().post("/api/solver/solve").then().statusCode(200);
        String metrics = given().when().get("/q/metrics").then().extract().asString();
        assertTrue(metrics.contains("solver_requests_total{caller=\"service\",mode=\"ai\",outcome=\"saturated\"}"),
                metrics);
    }
}
