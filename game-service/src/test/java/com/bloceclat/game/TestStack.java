package com.bloceclat.game;

import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.PostgresResource;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * The real parts every test of this module runs against, started once for the module's single application boot:
 * PostgreSQL and Kafka in the test JVM, a WireMock OIDC server, and a real solver-service process. (Test resources
 * apply to all tests of the module, whichever class carries them.)
 */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(KafkaResource.class)
@QuarkusTestResource(OidcWiremockTestResource.class)
@QuarkusTestResource(SolverServiceProcess.class)
final class TestStack {

    private TestStack() {
    }
}
