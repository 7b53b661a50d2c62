package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * docker-compose.yml against the modules. SnakeYAML reads it (it resolves the anchors and merge keys the file uses)
 * and Jackson gives the tree.
 */
class DockerComposeTest {

    /** Host ports of the contract: the same as the local stack's, so the README's URLs work with either. */
    static final Map<String, Integer> HOST_PORTS = Map.of(
            "game-service", 8080, "solver-service-1", 8081, "solver-service-2", 8082, "leaderboard-service-1", 8083,
            "leaderboard-service-2", 8084, "keycloak", 8180, "postgres", 15432, "kafka", 19092);

    /** Base64 DER of an Ed25519 private key (PKCS#8) starts so: a real key committed by mistake. */
    static final String ED25519_PKCS8_PREFIX = "MC4CAQAwBQYDK2Vw";

    static String text;

    static JsonNode services;

    @BeforeAll
    static void parse() throws IOException {
        try (Reader reader = Files.newBufferedReader(ServiceModule.ROOT.resolve("docker-compose.yml"))) {
            Object yaml = new Yaml().load(reader);
            services = new ObjectMapper().valueToTree(yaml).get("services");
        }
        text = Files.readString(ServiceModule.ROOT.resolve("docker-compose.yml"));
        assertNotNull(services, "docker-compose.yml has no services");
    }

    static List<String> applicationServices() {
        return List.of("game-service", "solver-service-1", "solver-service-2", "leaderboard-service-1",
                "leaderboard-service-2");
    }

    static List<String> kafkaClients() {
        return List.of("game-service", "leaderboard-service-1", "leaderboard-service-2");
    }

    @Test
    void everyServiceOfTheSuiteIsThere() {
        Set<String> names = new TreeSet<>();
        services.fieldNames().forEachRemaining(names::add);
        Set<String> expected = new TreeSet<>(HOST_PORTS.keySet());
        expected.add("kafka-setup");
        assertEquals(expected, names);
    }

    /**
     * Every long-running service comes back when its process exits (a crash, the out-of-memory killer, a host
     * reboot): compose restarts nothing by default (an operator's review). It restarts on exit only, never on a failed
     * health check, so what the services' liveness checks find (a failed Kafka channel) needs an orchestrator, k8s.
     */
    @Test
    void everyServiceButTheOneShotSetUpRestartsWhenItsProcessExits() {
        services.fieldNames().forEachRemaining(name -> {
            JsonNode restart = services.get(name).get("restart");
            if (name.equals("kafka-setup")) {
                assertEquals("no", restart.asText(), "the set-up runs once");
            } else {
                assertNotNull(restart, name + " is never restarted");
                assertEquals("unless-stopped", restart.asText(), name);
            }
        });
    }

    /**
     * A graceful stop has time for its own waits (leaderboard-service's drain of a batch, up to 20 s; game-service's
     * outbox batch in flight, up to 10 s): compose's default of 10 s cut them short.
     */
    @ParameterizedTest
    @MethodSource("kafkaClients")
    void aStopHasTimeForItsOwnWaits(String name) {
        JsonNode grace = services.get(name).get("stop_grace_period");
        assertNotNull(grace, name + " has compose's default of 10 s to stop");
        assertEquals("30s", grace.asText());
        if (name.startsWith("leaderboard-service")) {
            // its drain as configured (read, not copied: a longer one would be cut short here)
            Duration drain = ServiceModule.leaderboardShutdownDrain();
            assertTrue(drain.compareTo(Duration.ofSeconds(30)) < 0, name + ": a drain of " + drain + " within 30 s");
        }
    }

    @ParameterizedTest
    @MethodSource("applicationServices")
    void serviceIsBuiltFromItsModuleAndPublishedOnTheContractPort(String name) throws IOException {
        JsonNode service = services.get(name);
        ServiceModule module = moduleOf(service);
        assertEquals(module.image(), service.get("image").asText());
        Path dockerfile = module.dir().resolve(service.get("build").get("dockerfile").asText());
        assertTrue(Files.isRegularFile(dockerfile), dockerfile + " is missing");
        assertEquals(module.httpPort(), module.dockerfileExposedPort(), "EXPOSE of " + module);
        // published on this host only, as the infrastructure is: compose is one developer's stack
        assertEquals(Set.of("127.0.0.1:" + HOST_PORTS.get(name) + ":" + module.httpPort()), ports(service));
        JsonNode healthcheck = service.get("healthcheck").get("test");
        assertEquals("http://localhost:" + module.httpPort() + "/q/health/ready",
                healthcheck.get(healthcheck.size() - 1).asText());
    }

    @ParameterizedTest
    @MethodSource("applicationServices")
    void serviceGetsTheEnvironmentItNeeds(String name) {
        JsonNode service = services.get(name);
        ServiceModule module = moduleOf(service);
        Map<String, String> env = new HashMap<>();
        service.get("environment").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        Set<String> missing = new TreeSet<>(module.requiredEnv());
        missing.removeAll(env.keySet());
        assertTrue(missing.isEmpty(), name + " lacks " + missing);

        if (module.usesDatabase()) {
            URI jdbc = URI.create(env.get("QUARKUS_DATASOURCE_JDBC_URL").substring("jdbc:".length()));
            assertEquals("postgres", jdbc.getHost());
            assertEquals(5432, jdbc.getPort());
            assertTrue(databasesCreated().contains(module.databaseName()), module.databaseName() + " is never created");
            assertDependsOn(service, "postgres");
        }
        if (module.usesKafka()) {
            assertEquals("kafka:9092", env.get("KAFKA_BOOTSTRAP_SERVERS"));
            assertTrue(services.get("kafka").get("environment").get("KAFKA_ADVERTISED_LISTENERS").asText()
                    .contains("//kafka:9092"), "Kafka advertises kafka:9092 on the compose network");
            assertDependsOn(service, "kafka");
        }
        assertEquals("http://keycloak:8080/realms/bloc-eclat", env.get("QUARKUS_OIDC_AUTH_SERVER_URL"));
        assertEquals("http://localhost:" + HOST_PORTS.get("keycloak") + "/realms/bloc-eclat",
                env.get("QUARKUS_OIDC_TOKEN_ISSUER"));
        assertDependsOn(service, "keycloak");
    }

    @Test
    void gameServiceReachesBothSolverReplicas() {
        String urls = services.get("game-service").get("environment").get("SOLVER_URLS").asText();
        int solverPort = ServiceModule.load("solver-service").httpPort();
        assertEquals("http://solver-service-1:" + solverPort + ",http://solver-service-2:" + solverPort, urls);
    }

    /** The browser on this host reaches the published ports: /config.json and CORS must name them. */
    @Test
    void theBrowserIsToldThePublishedPorts() {
        JsonNode game = services.get("game-service").get("environment");
        assertEquals("http://localhost:" + HOST_PORTS.get("solver-service-1"), game.get("BLOC_UI_SOLVER_URL").asText());
        assertEquals("http://localhost:" + HOST_PORTS.get("leaderboard-service-1"),
                game.get("BLOC_UI_LEADERBOARD_URL").asText());
        assertEquals("http://localhost:" + HOST_PORTS.get("keycloak"), game.get("BLOC_UI_KEYCLOAK_URL").asText());
        for (String name : List.of("solver-service-1", "solver-service-2", "leaderboard-service-1",
                "leaderboard-service-2")) {
            assertEquals("http://localhost:" + HOST_PORTS.get("game-service"),
                    services.get(name).get("environment").get("BLOC_UI_ORIGINS").asText(), name);
        }
    }

    @Test
    void keycloakImportsTheCommittedRealm() {
        JsonNode keycloak = services.get("keycloak");
        assertTrue(keycloak.get("command").toString().contains("--import-realm"));
        boolean mounted = false;
        for (JsonNode volume : keycloak.get("volumes")) {
            String[] parts = volume.asText().split(":");
            if (parts[1].startsWith("/opt/keycloak/data/import/")) {
                assertTrue(Files.isRegularFile(ServiceModule.ROOT.resolve(parts[0])), parts[0] + " is missing");
                mounted = true;
            }
        }
        assertTrue(mounted, "the realm is mounted for import");
        // its admin console (admin/admin here) and the database (bloc/bloc) answer this host alone
        assertEquals(Set.of("127.0.0.1:" + HOST_PORTS.get("keycloak") + ":8080"), ports(keycloak));
    }

    @Test
    void infrastructureIsPublishedOnTheContractPorts() {
        assertEquals(Set.of("127.0.0.1:" + HOST_PORTS.get("postgres") + ":5432"), ports(services.get("postgres")));
        JsonNode kafka = services.get("kafka").get("environment");
        assertTrue(kafka.get("KAFKA_PROCESS_ROLES").asText().contains("controller"), "Kafka runs in KRaft mode");
        assertTrue(kafka.get("KAFKA_ADVERTISED_LISTENERS").asText().contains("//localhost:19092"));
        // the broker's data on its volume: unset, the image writes to /tmp in the container, lost when it is made again
        assertTrue(services.get("kafka").get("volumes").toString().contains("kafka-data:/var/lib/kafka/data"));
        assertEquals("/var/lib/kafka/data", kafka.path("KAFKA_LOG_DIRS").asText());
    }

    /** Only this host reaches the broker from outside the compose network; the controller is not published. */
    @Test
    void noBrokerPortIsPublishedToTheWorld() {
        assertEquals(Set.of("127.0.0.1:" + HOST_PORTS.get("kafka") + ":19092"), ports(services.get("kafka")));
        for (String name : List.of("kafka", "kafka-setup")) {
            assertFalse(services.get(name).has("network_mode"), name + " stays on the compose network");
        }
        assertFalse(services.get("kafka-setup").has("ports"));
    }

    @Test
    void kafkaTakesSaslLoginsOnlyAndDeniesWhatNoAclAllows() {
        JsonNode kafka = services.get("kafka").get("environment");
        for (String entry : kafka.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").asText().split(",")) {
            assertTrue(entry.split(":")[1].startsWith("SASL_"), "listener without SASL: " + entry);
        }
        assertEquals("org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                kafka.get("KAFKA_AUTHORIZER_CLASS_NAME").asText());
        assertEquals("User:admin", kafka.get("KAFKA_SUPER_USERS").asText());
        assertEquals("false", kafka.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND").asText());
        assertEquals("SCRAM-SHA-512", kafka.get("KAFKA_LISTENER_NAME_EXTERNAL_SASL_ENABLED_MECHANISMS").asText(),
                "from this host, SCRAM users only");
        assertTrue(kafka.get("KAFKA_LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG").asText()
                .matches(".*user_admin=\"\\$\\{KAFKA_ADMIN_PASSWORD[:?}].*"), "PLAIN knows admin only");
        assertEquals(6, kafka.get("KAFKA_NUM_PARTITIONS").asInt());
    }

    /** kafka-setup applies platform/kafka/access.conf (6 partitions, users, ACLs) before any service starts. */
    @Test
    void kafkaSetupAppliesTheAccessFileBeforeTheServicesStart() {
        JsonNode setup = services.get("kafka-setup");
        assertEquals(services.get("kafka").get("image"), setup.get("image"));
        assertTrue(setup.get("entrypoint").toString().contains("/bloc/kafka/kafka-setup.sh"));
        assertTrue(setup.get("volumes").toString().contains("./platform/kafka:/bloc/kafka:ro"));
        assertTrue(Files.isRegularFile(ServiceModule.ROOT.resolve("platform/kafka/kafka-setup.sh")));
        assertEquals("service_healthy", setup.get("depends_on").get("kafka").get("condition").asText());
        JsonNode env = setup.get("environment");
        assertEquals("kafka:9092", env.get("KAFKA_BOOTSTRAP").asText());
        for (String user : concat("admin", KafkaAccess.load().users())) {
            String var = KafkaAccess.passwordVariable(user);
            assertTrue(env.path(var).asText().startsWith("${" + var + ":?"), var + " from the environment file");
        }
        for (String name : kafkaClients()) {
            assertEquals("service_completed_successfully",
                    services.get(name).get("depends_on").get("kafka-setup").get("condition").asText(), name);
        }
    }

    @ParameterizedTest
    @MethodSource("kafkaClients")
    void serviceLogsInToKafkaAsItsOwnUser(String name) {
        JsonNode env = services.get(name).get("environment");
        String user = moduleOf(services.get(name)).name();
        assertEquals("SASL_PLAINTEXT", env.get("KAFKA_SECURITY_PROTOCOL").asText());
        assertEquals("SCRAM-SHA-512", env.get("KAFKA_SASL_MECHANISM").asText());
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"${" + KafkaAccess.passwordVariable(user) + ":?see docs/platform.md}\";",
                env.get("KAFKA_SASL_JAAS_CONFIG").asText());
    }

    /** The keys: game-service signs and holds the daily secret, leaderboard-service only checks. */
    @Test
    void signingKeysAndDailySecretComeFromTheEnvironmentFile() {
        JsonNode game = services.get("game-service").get("environment");
        for (String var : List.of("BLOC_SIGNING_KEY_ID", "BLOC_SIGNING_PRIVATE_KEY", "BLOC_DAILY_SECRET")) {
            assertEquals("${" + var + ":?see docs/platform.md}", game.path(var).asText(), var);
        }
        for (String name : List.of("leaderboard-service-1", "leaderboard-service-2")) {
            JsonNode env = services.get(name).get("environment");
            assertEquals("${BLOC_SIGNING_PUBLIC_KEYS:?see docs/platform.md}", env.path("BLOC_SIGNING_PUBLIC_KEYS")
                    .asText(), name);
            assertFalse(env.has("BLOC_SIGNING_PRIVATE_KEY") || env.has("BLOC_DAILY_SECRET"), name);
        }
        for (String name : List.of("solver-service-1", "solver-service-2")) {
            assertFalse(services.get(name).get("environment").has("BLOC_SIGNING_PRIVATE_KEY"), name);
        }
    }

    /** Every ${VAR} the file reads is one ./bloc secrets writes; no key is in the file itself; git ignores .bloc/. */
    @Test
    void secretsAreReferencedNeverEmbedded() throws IOException {
        Set<String> generated = generatedSecretNames();
        Matcher m = Pattern.compile("\\$\\{([A-Z0-9_]+)").matcher(text);
        Set<String> referenced = new TreeSet<>();
        while (m.find()) {
            referenced.add(m.group(1));
        }
        assertFalse(referenced.isEmpty());
        assertTrue(generated.containsAll(referenced), "not generated by ./bloc secrets: " + referenced);
        assertFalse(text.contains(ED25519_PKCS8_PREFIX), "a private key in docker-compose.yml");
        assertTrue(Files.readAllLines(ServiceModule.ROOT.resolve(".gitignore")).contains(".bloc/"));
    }

    /** The two replicas differ only by their host port: one module, one configuration, so one consumer group. */
    @Test
    void leaderboardRunsTwoReplicasOfOneConfiguration() {
        JsonNode one = services.get("leaderboard-service-1");
        JsonNode two = services.get("leaderboard-service-2");
        for (String key : List.of("image", "build", "environment", "depends_on", "healthcheck")) {
            assertEquals(one.get(key), two.get(key), key);
        }
        assertEquals("leaderboard-service", moduleOf(one).name());
    }

    /** SECRET_NAMES=(...) of platform/lib/secrets.sh: what bloc.env holds. */
    static Set<String> generatedSecretNames() throws IOException {
        String secrets = Files.readString(ServiceModule.ROOT.resolve("platform/lib/secrets.sh"));
        Matcher m = Pattern.compile("SECRET_NAMES=\\(([^)]*)\\)").matcher(secrets);
        assertTrue(m.find(), "SECRET_NAMES in platform/lib/secrets.sh");
        return new TreeSet<>(List.of(m.group(1).trim().split("\\s+")));
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new java.util.ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private static ServiceModule moduleOf(JsonNode service) {
        return ServiceModule.load(service.get("build").get("context").asText());
    }

    private static Set<String> ports(JsonNode service) {
        Set<String> ports = new HashSet<>();
        service.get("ports").forEach(p -> ports.add(p.asText()));
        return ports;
    }

    private static void assertDependsOn(JsonNode service, String dependency) {
        assertTrue(service.path("depends_on").has(dependency), "depends on " + dependency);
    }

    private static Set<String> databasesCreated() {
        Set<String> names = new HashSet<>();
        names.add(services.get("postgres").get("environment").get("POSTGRES_DB").asText());
        // Init scripts are inline compose configs.
        try (Reader reader = Files.newBufferedReader(ServiceModule.ROOT.resolve("docker-compose.yml"))) {
            JsonNode configs = new ObjectMapper().valueToTree(new Yaml().load(reader)).path("configs");
            configs.forEach(config -> {
                for (String statement : config.path("content").asText().split(";")) {
                    String s = statement.trim();
                    if (s.toUpperCase().startsWith("CREATE DATABASE ")) {
                        names.add(s.substring("CREATE DATABASE ".length()).split("\\s+")[0]);
                    }
                }
            });
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return names;
    }
}
