package com.bloceclat.game;

import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.PostgresResource;

import io.quarkus.test.common.QuarkusTestResource;

/**
 * The real parts every test of this module runs against, started once for the module's single application boot:
 * PostgreSQL and Kafka in the test JVM, and a real solver-service process with the WireMock OIDC server
 * ({@link SolverServiceProcess}). (Test resources apply to all tests of the module, whichever class carries them.)
 */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(KafkaResource.class)
@QuarkusTestResource(SolverServiceProcess.class)
final class TestStack {

    private TestStack() {
    }
}
