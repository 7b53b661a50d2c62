package com.bloceclat.game;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.bloceclat.testsupport.LocalProcess;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * A real solver-service, its packaged jar ({@code solver-service/target/quarkus-app}) run as its own process on a
 * free port of 127.0.0.1, for the module's tests, with the WireMock OIDC server both check tokens against (and which
 * grants game-service's solver client its service token); {@code bloc.solver.urls} lists a replica that is down,
 * then this one. Tests can {@link #stop()} and {@link #start()} it to see game-service without a solver. The root build
 * packages solver-service before game-service (game-service's pom declares the order).
 */
public class SolverServiceProcess implements QuarkusTestResourceLifecycleManager {

    static final Path JAR = Path.of("..", "solver-service", "target", "quarkus-app", "quarkus-run.jar");

    private static volatile int port;
    private static volatile Process process;
    private static volatile String realm;

    private final OidcWiremockTestResource oidc = new OidcWiremockTestResource();

    @Override
    public Map<String, String> start() {
        port = LocalProcess.freePort();
        Map<String, String> oidcConfig = oidc.start();
        realm = oidcConfig.get("keycloak.url") + "/realms/quarkus";
        // the service token is issued to bloc-services, as Keycloak's is: solver-service refuses other clients' tokens
        Tokens.serveServiceGrant(oidcConfig.get("keycloak.url"), List.of("player", "service"));
        launch();
        Map<String, String> config = new HashMap<>(oidcConfig);
        config.put("bloc.solver.urls", "http://127.0.0.1:9,http://127.0.0.1:" + port);
        // the service token for solver-service: the OIDC server's client credentials grant (roles in "groups")
        config.put("quarkus.oidc-client.auth-server-url", realm);
        config.put("quarkus.oidc-client.client-id", "quarkus-app");
        config.put("quarkus.oidc-client.credentials.secret", "secret");
        return config;
    }

    @Override
    public void stop() {
        halt();
        oidc.stop();
    }

    /** Starts the process (again, on the same port) and waits until it answers. */
    static synchronized void launch() {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException("No solver-service jar at " + JAR.toAbsolutePath()
                    + ": package solver-service first (./mvnw -B -pl solver-service,game-service -am verify)");
        }
        List<String> command = new ArrayList<>(LocalProcess.java());
        command.addAll(List.of("-Xmx192m",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                // tokens checked against the OIDC server of the tests, which puts the roles in "groups"
                "-Dquarkus.oidc.auth-server-url=" + realm,
                "-Dquarkus.oidc.roles.role-claim-path=groups",
                "-Dquarkus.log.console.json.enabled=false",
                "-jar", JAR.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        File log = new File("target/solver-service.log");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start solver-service", e);
        }
        try {
            LocalProcess.awaitAnswer(process, URI.create("http://127.0.0.1:" + port + "/api/solver/info"),
                    Duration.ofSeconds(120), "solver-service", log.toPath());
        } catch (IllegalStateException e) {
            halt();
            throw e;
        }
    }

    /** Stops the process and waits for it to exit. */
    static synchronized void halt() {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroy();
            try {
                if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        process = null;
    }
}
