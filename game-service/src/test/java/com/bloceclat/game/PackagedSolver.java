package com.bloceclat.game;

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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.bloceclat.testsupport.LocalProcess;

/**
 * A packaged solver-service replica ({@link SolverServiceProcess#JAR}) as its own process on a free port of
 * 127.0.0.1, checking tokens against the OIDC server of a {@link PackagedGameService}, for tests and benchmarks of
 * packaged game-service replicas. {@code -Dsolver.cpus=...} runs it under {@code taskset -c}.
 */
final class PackagedSolver implements AutoCloseable {

    private static final Pattern SEARCHES = Pattern.compile(
            "^solver_requests_total\\{([^}]*)\\}\\s+([0-9.eE+-]+)$", Pattern.MULTILINE);

    private final Process process;
    final int port;

    private PackagedSolver(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts a replica checking tokens against {@code realm} and waits until it answers. */
    static PackagedSolver start(String realm, Path log) {
        int port = LocalProcess.freePort();
        List<String> command = new ArrayList<>();
        String cpus = System.getProperty("solver.cpus");
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.addAll(LocalProcess.java());
        command.addAll(List.of("-Xmx" + System.getProperty("solver.xmx", "256m"),
                "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-Dquarkus.oidc.auth-server-url=" + realm, "-Dquarkus.oidc.roles.role-claim-path=groups",
                "-Dquarkus.log.console.json.enabled=false",
                "-jar", SolverServiceProcess.JAR.toAbsolutePath().toString()));
        if (!Files.exists(SolverServiceProcess.JAR)) {
            throw new IllegalStateException("No solver-service jar at " + SolverServiceProcess.JAR.toAbsolutePath()
                    + ": package solver-service first");
        }
        try {
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            LocalProcess.awaitAnswer(p, URI.create("http://127.0.0.1:" + port + "/api/solver/info"),
                    Duration.ofSeconds(120), "solver-service", log);
            return new PackagedSolver(p, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    /** The AI searches this replica ran for services since it started ({@code solver_requests_total}, ok + partial). */
    long aiSearches() throws IOException, InterruptedException {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url() + "/q/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        long n = 0;
        Matcher m = SEARCHES.matcher(metrics);
        while (m.find()) {
            String tags = m.group(1);
            if (tags.contains("mode=\"ai\"") && tags.contains("caller=\"service\"")
                    && (tags.contains("outcome=\"ok\"") || tags.contains("outcome=\"partial\""))) {
                n += (long) Double.parseDouble(m.group(2));
            }
        }
        return n;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
