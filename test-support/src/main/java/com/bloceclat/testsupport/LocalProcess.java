package com.bloceclat.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the tests that run a packaged service as a process of its own need: a free port, and waiting for it. */
public final class LocalProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LocalProcess() {
    }

    /**
     * The start of the command line of a service process: this JVM's {@code java}, and for a test (not a benchmark)
     * the options of a short-lived JVM. The tests start and kill dozens of service processes on 2 cores, none of
     * which lives long enough to gain from C2: with C1 alone and the serial collector they start about 15% sooner
     * and take about a sixth less CPU (ReplicasIT: 140 s against 166 s). A benchmark measures the production JVM:
     * it sets {@code bloc.test.quick-jvm=false} (LoadBench, AiBench and leaderboard-service's LoadGenerator do).
     */
    public static List<String> java() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (Boolean.parseBoolean(System.getProperty("bloc.test.quick-jvm", "true"))) {
            command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        }
        return command;
    }

    /** A TCP port nothing listens on right now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until {@code url} answers 200. Fails at once when the process exits, and after {@code within}.
     *
     * @param what the service, for the failure's message
     * @param log  where its output goes, for the failure's message
     */
    public static void awaitAnswer(Process process, URI url, Duration within, String what, Path log) {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<Void> answer = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5))
                        .build(), HttpResponse.BodyHandlers.discarding());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException(what + " was not ready within " + within.toSeconds() + " s; see " + log);
    }
}
