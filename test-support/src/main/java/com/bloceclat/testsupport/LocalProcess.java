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

/** What the tests that run a packaged service as a process of its own need: a free port, and waiting for it. */
public final class LocalProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LocalProcess() {
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
