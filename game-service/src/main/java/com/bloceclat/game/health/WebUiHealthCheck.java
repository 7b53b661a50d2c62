package com.bloceclat.game.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** game-service serves the browser game at "/": it is not ready if the web-ui bundle is missing from its classpath. */
@Readiness
@ApplicationScoped
public class WebUiHealthCheck implements HealthCheck {

    static final String INDEX = "META-INF/resources/index.html";

    @Override
    public HealthCheckResponse call() {
        boolean present = Thread.currentThread().getContextClassLoader().getResource(INDEX) != null;
        return HealthCheckResponse.named("web-ui").status(present).build();
    }
}
