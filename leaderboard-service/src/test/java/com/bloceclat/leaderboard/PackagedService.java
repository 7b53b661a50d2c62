package com.bloceclat.leaderboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.LocalProcess;
import com.bloceclat.testsupport.PostgresResource;

import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * The packaged leaderboard-service ({@code target/quarkus-app}) run as a separate process, as in production, against
 * a real PostgreSQL, a real Kafka broker and an OIDC server started in this JVM. The process can be started, stopped
 * and killed as many times as a test needs, on the same database and broker; {@link #replica} is a second process
 * on the same infrastructure (one consumer group, one database), as two replicas of a Deployment.
 */
public final class PackagedService implements AutoCloseable {

    private final PostgresResource postgres;
    private final KafkaResource kafka;
    private final OidcWiremockTestResource oidc;
    private final Map<String, String> env = new HashMap<>();
    private final Path logDir;
    private Process process;
    private int port;
    private int runs;

    public PackagedService(Path logDir) {
        this.logDir = logDir;
        postgres = new PostgresResource();
        kafka = new KafkaResource();
        oidc = new OidcWiremockTestResource();
        Map<String, String> db = postgres.start();
        Map<String, String> broker = kafka.start();
        Map<String, String> auth = oidc.start();
        env.put("QUARKUS_DATASOURCE_JDBC_URL", db.get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", db.get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", db.get("quarkus.datasource.password"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.get("kafka.bootstrap.servers"));
        env.put("QUARKUS_OIDC_AUTH_SERVER_URL", auth.get("keycloak.url") + "/realms/quarkus");
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("LOG_JSON", "false");
        env.put("BLOC_SIGNING_PUBLIC_KEYS", Games.PUBLIC_KEY);
    }

    /** A replica: its own process, with the same configuration, database, broker and OIDC server. */
    private PackagedService(PackagedService of, Path logDir) {
        this.logDir = logDir;
        postgres = null;
        kafka = null;
        oidc = null;
        env.putAll(of.env);
    }

    /** Another process of the service on this one's infrastructure; closing it ends only its process. */
    public PackagedService replica(Path replicaLogDir) {
        return new PackagedService(this, replicaLogDir);
    }

    /** An environment variable for the next starts of this process (not of replicas made before). */
    public void env(String name, String value) {
        env.put(name, value);
    }

    public static Path jar() {
        Path jar = Path.of(System.getProperty("leaderboard.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No packaged service at " + jar.toAbsolutePath()
                    + "; run ./mvnw -B -pl leaderboard-service -am package -DskipTests first");
        }
        return jar;
    }

    /** Starts the service and waits until it is ready (its database check up; Kafka is not part of readiness). */
    public void start() {
        start(new String[0]);
    }

    /** Starts the service with extra system properties ({@code -Dkey=value}) and waits until it is ready. */
    public void start(String... properties) {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        port = LocalProcess.freePort();
        Path log = nextLog();
        process = launch(List.of(properties), Map.of(), List.of(), port, log);
        LocalProcess.awaitAnswer(process, URI.create("http://127.0.0.1:" + port + "/q/health/ready"),
                Duration.ofSeconds(90), "leaderboard-service", log);
    }

    /** How a run that was to exit by itself ended: its exit code and its log. */
    public record Exited(int code, String log) {
    }

    /**
     * Runs the service with the environment variables {@code more} added and {@code without} left out, which must
     * exit by itself within 120 s ({@code QUARKUS_INIT_AND_EXIT}, or an error at start).
     */
    public Exited runToExit(Map<String, String> more, String... without) throws Exception {
        Path log = nextLog();
        // a port of its own: this instance's service may be running on its port meanwhile
        Process run = launch(List.of(), more, List.of(without), LocalProcess.freePort(), log);
        if (!run.waitFor(120, TimeUnit.SECONDS)) {
            run.destroyForcibly();
            throw new AssertionError("leaderboard-service started (or hung) when it should have exited; see " + log);
        }
        return new Exited(run.exitValue(), Files.readString(log));
    }

    private Path nextLog() {
        runs++;
        return logDir.resolve("leaderboard-service-run-" + runs + ".log");
    }

    private Process launch(List<String> properties, Map<String, String> more, List<String> without, int port,
            Path log) {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(LocalProcess.java()));
        builder.command().addAll(List.of("-Xmx256m", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                // A killed consumer stays in the group until its session times out (45 s by default), and the
                // next one waits for that: the broker's minimum keeps the tests short.
                "-Dmp.messaging.incoming.game-finished.session.timeout.ms=6000"));
        builder.command().addAll(properties);
        builder.command().addAll(List.of("-jar", jar().toAbsolutePath().toString()));
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

    /** SIGTERM: the service shuts down gracefully; waits for it to exit. */
    public void stop() {
        end(false);
    }

    /** SIGKILL: the service dies on the spot, as in a crash; waits for it to be gone. */
    public void kill() {
        end(true);
    }

    private void end(boolean forcibly) {
        if (process == null) {
            return;
        }
        if (forcibly) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Stops the broker for good: the processes of this service (and its replicas) go on without one. */
    public void stopKafka() {
        kafka.stop();
    }

    public String bootstrapServers() {
        return env.get("KAFKA_BOOTSTRAP_SERVERS");
    }

    /** A producer of strings to the broker, acknowledged by it ({@code acks=all}); the caller closes it. */
    public KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** A connection to the service's database. */
    public Connection database() throws SQLException {
        return DriverManager.getConnection(env.get("QUARKUS_DATASOURCE_JDBC_URL"),
                env.get("QUARKUS_DATASOURCE_USERNAME"), env.get("QUARKUS_DATASOURCE_PASSWORD"));
    }

    @Override
    public void close() {
        kill();
        if (postgres != null) {
            oidc.stop();
            kafka.stop();
            postgres.stop();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
