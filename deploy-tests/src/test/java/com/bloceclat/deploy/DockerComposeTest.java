package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
            "game-service", 8080, "solver-service-1", 8081, "solver-service-2", 8082, "leaderboard-service", 8083,
            "keycloak", 8180, "postgres", 15432, "kafka", 19092);

    static JsonNode services;

    @BeforeAll
    static void parse() throws IOException {
        try (Reader reader = Files.newBufferedReader(ServiceModule.ROOT.resolve("docker-compose.yml"))) {
            Object yaml = new Yaml().load(reader);
            services = new ObjectMapper().valueToTree(yaml).get("services");
        }
        assertNotNull(services, "docker-compose.yml has no services");
    }

    static List<String> applicationServices() {
        return List.of("game-service", "solver-service-1", "solver-service-2", "leaderboard-service");
    }

    @Test
    void everyServiceOfTheSuiteIsThere() {
        Set<String> names = new TreeSet<>();
        services.fieldNames().forEachRemaining(names::add);
        assertEquals(new TreeSet<>(HOST_PORTS.keySet()), names);
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
        assertEquals(Set.of(HOST_PORTS.get(name) + ":" + module.httpPort()), ports(service));
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
        assertEquals("http://localhost:" + HOST_PORTS.get("leaderboard-service"),
                game.get("BLOC_UI_LEADERBOARD_URL").asText());
        assertEquals("http://localhost:" + HOST_PORTS.get("keycloak"), game.get("BLOC_UI_KEYCLOAK_URL").asText());
        for (String name : List.of("solver-service-1", "solver-service-2", "leaderboard-service")) {
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
        assertEquals(Set.of(HOST_PORTS.get("keycloak") + ":8080"), ports(keycloak));
    }

    @Test
    void infrastructureIsPublishedOnTheContractPorts() {
        assertEquals(Set.of(HOST_PORTS.get("postgres") + ":5432"), ports(services.get("postgres")));
        assertEquals(Set.of(HOST_PORTS.get("kafka") + ":19092"), ports(services.get("kafka")));
        JsonNode kafka = services.get("kafka").get("environment");
        assertTrue(kafka.get("KAFKA_PROCESS_ROLES").asText().contains("controller"), "Kafka runs in KRaft mode");
        assertTrue(kafka.get("KAFKA_ADVERTISED_LISTENERS").asText().contains("//localhost:19092"));
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
