package com.bloceclat.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One Quarkus service module, as its application.properties describes it. */
record ServiceModule(String name, Path dir, Properties properties) {

    static final Path ROOT = Path.of(System.getProperty("bloc.root", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("bloc.version", "1.0.0-SNAPSHOT");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)[:}]");

    static List<ServiceModule> all() {
        return List.of(load("game-service"), load("solver-service"), load("leaderboard-service"));
    }

    static ServiceModule load(String name) {
        Path dir = ROOT.resolve(name);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(dir.resolve("src/main/resources/application.properties"),
                StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ServiceModule(name, dir, properties);
    }

    int httpPort() {
        return Integer.parseInt(properties.getProperty("quarkus.http.port"));
    }

    boolean usesDatabase() {
        return properties.containsKey("quarkus.datasource.db-kind");
    }

    boolean usesKafka() {
        return properties.containsKey("kafka.bootstrap.servers");
    }

    String image() {
        return "bloc-eclat/" + name + ":" + VERSION;
    }

    /** The database name at the end of the local JDBC URL: the same name is used in every deployment. */
    String databaseName() {
        String url = properties.getProperty("quarkus.datasource.jdbc.url");
        return url.substring(url.lastIndexOf('/') + 1);
    }

    /**
     * The environment a deployment must give this service: where its OIDC server, database and Kafka are, their
     * credentials, and every variable its (profile-less) configuration reads.
     */
    Set<String> requiredEnv() {
        Set<String> env = new LinkedHashSet<>(List.of(
                "QUARKUS_OIDC_AUTH_SERVER_URL", "QUARKUS_OIDC_TOKEN_ISSUER", "QUARKUS_OIDC_CREDENTIALS_SECRET"));
        if (usesDatabase()) {
            env.addAll(List.of("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME",
                    "QUARKUS_DATASOURCE_PASSWORD"));
        }
        if (usesKafka()) {
            env.add("KAFKA_BOOTSTRAP_SERVERS");
        }
        for (String key : properties.stringPropertyNames()) {
            if (!key.startsWith("%")) {
                Matcher m = PLACEHOLDER.matcher(properties.getProperty(key));
                while (m.find()) {
                    env.add(m.group(1));
                }
            }
        }
        return env;
    }

    /**
     * How long a graceful stop of leaderboard-service waits for the batch being stored
     * ({@code bloc.leaderboard.shutdown-drain}: application.properties, or else its {@code @WithDefault} in
     * LeaderboardConfig.java).
     */
    static Duration leaderboardShutdownDrain() {
        ServiceModule leaderboard = load("leaderboard-service");
        String set = leaderboard.properties().getProperty("bloc.leaderboard.shutdown-drain");
        if (set == null) {
            Path config = leaderboard.dir().resolve("src/main/java/com/bloceclat/leaderboard/config/LeaderboardConfig.java");
            Matcher m;
            try {
                m = Pattern.compile("@WithDefault\\(\"([^\"]+)\"\\)\\s+Duration shutdownDrain\\(\\)")
                        .matcher(Files.readString(config));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!m.find()) {
                throw new AssertionError(config + " has no default for shutdownDrain()");
            }
            set = m.group(1);
        }
        return Duration.parse("PT" + set.toUpperCase(java.util.Locale.ROOT));
    }

    /** The port the module's JVM image declares with EXPOSE. */
    int dockerfileExposedPort() throws IOException {
        Path dockerfile = dir.resolve("src/main/docker/Dockerfile.jvm");
        return Files.readAllLines(dockerfile).stream()
                .filter(line -> line.startsWith("EXPOSE "))
                .map(line -> Integer.parseInt(line.substring("EXPOSE ".length()).trim()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(dockerfile + " exposes no port"));
    }

    @Override
    public String toString() {
        return name;
    }
}
