package com.bloceclat.game;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.LocalProcess;
import com.bloceclat.testsupport.PostgresResource;

import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * Packaged game-service replicas ({@code target/quarkus-app}), each its own process as in production, sharing one
 * real PostgreSQL, one Kafka broker and one OIDC server started in this JVM. A replica can be started, killed and
 * started again on the same data.
 */
final class PackagedGameService implements AutoCloseable {

    private final PostgresResource postgres = new PostgresResource();
    private final KafkaResource kafka = new KafkaResource();
    private final OidcWiremockTestResource oidc = new OidcWiremockTestResource();
    private final Map<String, String> env = new HashMap<>();
    private final Path logDir;
    private final List<Replica> replicas = new ArrayList<>();
    private final String oidcUrl;
    private int runs;

    /** One running process. */
    final class Replica {
        private final Process process;
        final int port;

        private Replica(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        String http() {
            return "http://127.0.0.1:" + port;
        }

        String ws() {
            return "ws://127.0.0.1:" + port;
        }

        long pid() {
            return process.pid();
        }

        /** SIGTERM, as a rolling restart sends it; waits until the process is gone (at most 60 s). */
        void stop() {
            signalStop();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    throw new AssertionError("game-service did not stop within 60 s of SIGTERM");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** SIGTERM, without waiting for the process to end. */
        void signalStop() {
            process.destroy();
        }

        boolean alive() {
            return process.isAlive();
        }

        /** SIGKILL, as in a crash; waits until the process is gone. */
        void kill() {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    PackagedGameService(Path logDir) {
        this.logDir = logDir;
        Map<String, String> db = postgres.start();
        Map<String, String> broker = kafka.start();
        Map<String, String> auth = oidc.start();
        oidcUrl = auth.get("keycloak.url");
        env.put("QUARKUS_DATASOURCE_JDBC_URL", db.get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", db.get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", db.get("quarkus.datasource.password"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.get("kafka.bootstrap.servers"));
        env.put("QUARKUS_OIDC_AUTH_SERVER_URL", auth.get("keycloak.url") + "/realms/quarkus");
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("SOLVER_URLS", "http://127.0.0.1:9");
        // the solver client's service token comes from the OIDC server's client credentials grant
        env.put("QUARKUS_OIDC_CLIENT_ID", "quarkus-app");
        env.put("QUARKUS_OIDC_CREDENTIALS_SECRET", "secret");
        env.put("LOG_JSON", "false");
        // the production profile has no signing key and no daily secret: the tests' fixed ones
        env.put("BLOC_SIGNING_KEY_ID", TestKeys.KEY_ID);
        env.put("BLOC_SIGNING_PRIVATE_KEY", TestKeys.PRIVATE_KEY);
        env.put("BLOC_DAILY_SECRET", TestKeys.DAILY_SECRET);
        // tokens signed here with the key the OIDC server publishes
        System.setProperty("smallrye.jwt.sign.key.location", "privateKey.jwk");
    }

    static Path jar() {
        Path jar = Path.of(System.getProperty("game.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No packaged service at " + jar.toAbsolutePath()
                    + "; run ./mvnw -B -pl game-service -am package -DskipTests first");
        }
        return jar;
    }

    /** Starts a replica and waits until it is ready (its database check up; Kafka is not part of readiness). */
    Replica start() {
        return start(Map.of());
    }

    /** Starts a replica with some more environment variables (configuration) of its own. */
    Replica start(Map<String, String> more) {
        return start(1, more).get(0);
    }

    /** Starts {@code n} replicas with the same configuration at once, and waits until each is ready. */
    List<Replica> start(int n, Map<String, String> more) {
        List<Replica> started = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int port = LocalProcess.freePort();
            Path log = nextLog();
            Replica replica = new Replica(launch(more, List.of(), port, log), port);
            replicas.add(replica);
            started.add(replica);
            logs.add(log);
        }
        for (int i = 0; i < n; i++) {
            LocalProcess.awaitAnswer(started.get(i).process, URI.create(started.get(i).http() + "/q/health/ready"),
                    Duration.ofSeconds(120), "game-service", logs.get(i));
        }
        return started;
    }

    /**
     * Starts a replica with the environment variables {@code without} left out and {@code more} added, which must
     * make it exit at start; completes with its log once it has exited. Several may be started at once.
     */
    CompletableFuture<String> failToStart(Map<String, String> more, String... without) {
        return runToExit(more, without).thenApply(Exited::log);
    }

    /** How a replica that was to exit by itself ended: its exit code and its log. */
    record Exited(int code, String log) {
    }

    /**
     * Starts a replica as {@link #failToStart} does, which must exit by itself within 120 s (an error at start, or
     * {@code QUARKUS_INIT_AND_EXIT}); completes with its exit code and log.
     */
    CompletableFuture<Exited> runToExit(Map<String, String> more, String... without) {
        Path log = nextLog();
        Process process = launch(more, List.of(without), LocalProcess.freePort(), log);
        return process.onExit().orTimeout(120, TimeUnit.SECONDS).handle((exited, timeout) -> {
            if (timeout != null) {
                process.destroyForcibly();
                throw new AssertionError("game-service started (or hung) although it should have exited; see " + log);
            }
            try {
                return new Exited(exited.exitValue(), Files.readString(log));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private synchronized Path nextLog() {
        runs++;
        return logDir.resolve("game-service-run-" + runs + ".log");
    }

    private Process launch(Map<String, String> more, List<String> without, int port, Path log) {
        List<String> command = new ArrayList<>();
        String cpus = System.getProperty("game.cpus");
        if (cpus != null) {
            // benchmarks: the replica on CPUs of its own (taskset), away from the load generator and the brokers
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.addAll(LocalProcess.java());
        String options = System.getProperty("game.jvm-options", ""); // benchmarks: a flight recording, for example
        if (!options.isBlank()) {
            command.addAll(List.of(options.trim().split("\\s+")));
        }
        command.addAll(List.of("-Xmx" + System.getProperty("game.xmx", "256m"),
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-jar", jar().toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        without.forEach(builder.environment()::remove);
        builder.environment().putAll(more);
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.redirectErrorStream(true);
        try {
            Files.createDirectories(logDir);
            builder.redirectOutput(log.toFile());
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the broker: Kafka is unavailable until {@link #startKafka()}. */
    void stopKafka() {
        kafka.stop();
    }

    /** Starts a broker again (on another port); replicas started from now on use it. */
    void startKafka() {
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.start().get("kafka.bootstrap.servers"));
    }

    /** Stops the broker for a while: {@link #kafkaBack} starts one where it was, for the replicas still running. */
    void kafkaAway() {
        kafka.stopForNow();
    }

    /** A broker back where the last one was (its topics new and empty): the running replicas reconnect to it. */
    void kafkaBack() {
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.startOnTheSamePort().get("kafka.bootstrap.servers"));
    }

    /** The most times a relay kept one of a game's outbox rows after its send (0 once none is left). */
    int keptSends(String gameId) throws SQLException {
        try (Connection c = db(); PreparedStatement q = c.prepareStatement(
                "SELECT coalesce(max(attempts), 0) FROM outbox WHERE msg_key = ?")) {
            q.setString(1, gameId);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    /** The OIDC server's base URL (its realm is {@code <url>/realms/quarkus}). */
    String oidcUrl() {
        return oidcUrl;
    }

    /** A new connection to the replicas' database. */
    Connection db() throws SQLException {
        return DriverManager.getConnection(env.get("QUARKUS_DATASOURCE_JDBC_URL"),
                env.get("QUARKUS_DATASOURCE_USERNAME"), env.get("QUARKUS_DATASOURCE_PASSWORD"));
    }

    /** Outbox rows of a game not yet acknowledged by a broker. */
    long unsent(String gameId) throws SQLException {
        return unsent(gameId, "%");
    }

    /** A game's messages of one topic not sent yet (a LIKE pattern: % for every topic). */
    long unsent(String gameId, String topic) throws SQLException {
        try (Connection c = DriverManager.getConnection(env.get("QUARKUS_DATASOURCE_JDBC_URL"),
                env.get("QUARKUS_DATASOURCE_USERNAME"), env.get("QUARKUS_DATASOURCE_PASSWORD"));
                PreparedStatement q = c.prepareStatement(
                        "SELECT count(*) FROM outbox WHERE msg_key = ? AND topic LIKE ?")) {
            q.setString(1, gameId);
            q.setString(2, topic);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /** Outbox rows of every game not yet acknowledged by a broker (parked ones aside). */
    long unsentRows() throws SQLException {
        try (Connection c = db(); PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM outbox WHERE parked_at IS NULL")) {
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Override
    public void close() {
        replicas.forEach(Replica::kill);
        oidc.stop();
        kafka.stop();
        postgres.stop();
    }
}
