package com.bloceclat.solver;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** The WireMock OIDC server every test of this module checks tokens against (test resources apply module-wide). */
@QuarkusTestResource(OidcWiremockTestResource.class)
final class TestStack {

    private TestStack() {
    }
}
