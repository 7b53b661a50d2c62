package com.bloceclat.solver.client;

import io.quarkus.test.common.QuarkusTestResource;

/** Two solver-service replicas and the OIDC server, for every test of this module. */
@QuarkusTestResource(SolverReplicas.class)
final class TestStack {

    private TestStack() {
    }
}
