package com.bloceclat.solver.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.bloceclat.testsupport.LocalProcess;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * Two real solver-service replicas (the packaged {@code quarkus-run.jar}, each its own JVM on a free port) checking
 * tokens against the WireMock OIDC server, which also serves this test application's client credentials grant: a
 * token of the {@code bloc-services} service account ({@link Tokens#serveServiceGrant}) with the role "service" in
 * the {@code groups} claim, so the replicas read roles from there.
 */
public class SolverReplicas implements QuarkusTestResourceLifecycleManager {

    static final Path JAR = Path.of("../solver-service/target/quarkus-app/quarkus-run.jar");
    private static final Duration READY_WITHIN = Duration.ofSeconds(90);

    private final OidcWiremockTestResource oidc = new OidcWiremockTestResource();
    private final List<Replica> replicas = new ArrayList<>();

    /** One replica: its process, address and log. */
    public record Replica(Process process, URI url, Path log) {

        /** The replica's {@code solver_requests_total}, summed over its tags. */
        public double solvedRequests() {
            String metrics = get(url.resolve("/q/metrics"));
            return metrics.lines()
                    .filter(line -> line.startsWith("solver_requests_total{"))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .sum();
        }
    }

    @Override
    public Map<String, String> start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: package solver-service first "
                    + "(./mvnw -pl solver-client -am verify does)");
        }
        Map<String, String> oidcConfig = oidc.start();
        String realm = oidcConfig.get("keycloak.url") + "/realms/quarkus";
        // the service token is issued to bloc-services, as Keycloak's is: solver-service refuses other clients' tokens
        Tokens.serveServiceGrant(oidcConfig.get("keycloak.url"), List.of("service"));
        for (int i = 1; i <= 2; i++) {
            replicas.add(launch(i, realm));
        }
        for (Replica replica : replicas) {
            awaitReady(replica);
        }
        Map<String, String> config = new HashMap<>(oidcConfig);
        config.put("bloc.solver.urls", replicas.stream().map(r -> r.url().toString()).collect(Collectors.joining(",")));
        config.put("quarkus.oidc-client.auth-server-url", realm);
        config.put("quarkus.oidc-client.client-id", "quarkus-app");
        config.put("quarkus.oidc-client.credentials.secret", "secret");
        return config;
    }

    private static Replica launch(int index, String realm) {
        int port = LocalProcess.freePort();
        Path log = Path.of("target", "solver-replica-" + index + ".log");
        List<String> command = new ArrayList<>(LocalProcess.java());
        command.addAll(List.of("-Xmx256m", "-jar", JAR.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(Map.of(
                "QUARKUS_HTTP_HOST", "127.0.0.1",
                "QUARKUS_HTTP_PORT", Integer.toString(port),
                "QUARKUS_OIDC_AUTH_SERVER_URL", realm,
                "QUARKUS_OIDC_ROLES_ROLE_CLAIM_PATH", "groups",
                "LOG_JSON", "false"));
        try {
            return new Replica(builder.start(), URI.create("http://127.0.0.1:" + port), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitReady(Replica replica) {
        LocalProcess.awaitAnswer(replica.process(), replica.url().resolve("/q/health/ready"), READY_WITHIN,
                "solver-service at " + replica.url(), replica.log());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(List.copyOf(replicas),
                new TestInjector.AnnotatedAndMatchesType(InjectReplicas.class, List.class));
    }

    @Override
    public void stop() {
        for (Replica replica : replicas) {
            replica.process().destroy();
        }
        for (Replica replica : replicas) {
            try {
                if (!replica.process().waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    replica.process().destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                replica.process().destroyForcibly();
            }
        }
        oidc.stop();
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    static String get(URI uri) {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
