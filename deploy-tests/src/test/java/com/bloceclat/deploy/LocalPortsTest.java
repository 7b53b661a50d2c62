package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/security.md: "{@code ./bloc up}: every port listens on 127.0.0.1". Each component of the local stack is
 * prepared and started by the script's own functions (platform/lib/infra.sh, services.sh) on a state folder of the
 * test's, with {@code start_bg} replaced by one that records the command line and environment instead of starting
 * anything, and stand-ins for initdb, the single-user server and Kafka's storage tool. What is asserted is what the
 * components would be given: the files written (postgresql.conf, Kafka's server.properties copy) and the command
 * lines and environments. Not covered: the programs' own defaults for what they are not given (read from their
 * documentation: Keycloak's management interface takes http-host when http-management-host is not set), and a
 * PostgreSQL cluster made before its configuration changed (postgresql.conf is written at its first set-up only).
 */
class LocalPortsTest {

    private static final String LOOPBACK = "127.0.0.1";

    @TempDir
    Path state;

    @BeforeEach
    void standIns() throws IOException {
        Files.createDirectories(state.resolve("secrets"));
        Files.writeString(state.resolve("secrets/bloc.env"), "KAFKA_ADMIN_PASSWORD=test-admin\n"
                + "KAFKA_GAME_SERVICE_PASSWORD=test-game\nKAFKA_LEADERBOARD_SERVICE_PASSWORD=test-leaderboard\n");
        BlocShell.postgresStandIns(state);
        // Kafka's storage tool (random-uuid, format), run by kafka_prepare with $JAVA
        BlocShell.executable(state.resolve("java"), "#!/bin/bash\necho 00000000-0000-0000-0000-000000000000\n");
        Files.createDirectories(state.resolve("dist"));
    }

    @Test
    void everyServiceListensOnLoopbackOnly() throws Exception {
        Map<String, Started> started = start("for s in \"${SERVICES[@]}\"; do service_start \"$s\"; done");
        assertEquals(List.of("solver-service-1", "solver-service-2", "game-service", "leaderboard-service-1",
                "leaderboard-service-2"), List.copyOf(started.keySet()));
        for (Started service : started.values()) {
            // Quarkus listens on 0.0.0.0 unless told otherwise; the environment is what service_start exports
            assertEquals(LOOPBACK, service.env().get("QUARKUS_HTTP_HOST"), service.name() + "'s HTTP host");
            if ("true".equals(service.env().get("QUARKUS_MANAGEMENT_ENABLED"))) {
                assertEquals(LOOPBACK, service.env().get("QUARKUS_MANAGEMENT_HOST"), service.name() + "'s management");
            }
            assertNoDebugPort(service);
        }
        // a management interface (its own port, on 0.0.0.0 by default) turned on in a module's configuration
        for (ServiceModule module : ServiceModule.all()) {
            module.properties().stringPropertyNames().stream()
                    .filter(k -> k.replaceFirst("^%[a-z]+\\.", "").equals("quarkus.management.enabled"))
                    .forEach(k -> assertFalse(Boolean.parseBoolean(module.properties().getProperty(k).trim()),
                            module.name() + " turns on a management interface (" + k + "): give it 127.0.0.1"));
        }
    }

    @Test
    void postgresqlListensOnLoopbackOnly() throws Exception {
        Map<String, Started> started = start("postgres_prepare; postgres_start");
        List<String> conf = Files.readAllLines(state.resolve("postgres/data/postgresql.conf"));
        assertEquals("'" + LOOPBACK + "'", setting(conf, "listen_addresses"), "postgresql.conf's listen_addresses");
        assertEquals("''", setting(conf, "unix_socket_directories"), "no socket file either");
        Started postgres = started.get("postgres");
        // postgres -h ADDRESSES or -c listen_addresses=... would win over the file
        assertFalse(postgres.args().contains("-h") || postgres.args().stream().anyMatch(a -> a.contains("listen_addresses")),
                "the server's command line changes its addresses: " + postgres.args());
        assertNoDebugPort(postgres);
    }

    @Test
    void keycloakListensOnLoopbackOnly() throws Exception {
        Started keycloak = start("keycloak_start").get("keycloak");
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : keycloak.args()) {
            Matcher m = Pattern.compile("^--([a-z-]+)=(.*)$").matcher(arg);
            if (m.matches()) {
                assertFalse(options.containsKey(m.group(1)), "--" + m.group(1) + " given twice: " + keycloak.args());
                options.put(m.group(1), m.group(2));
            }
            // the same options as environment variables, given through env(1)
            assertFalse(arg.matches("KC_HTTP(_MANAGEMENT)?_HOST=.*") && !arg.endsWith("=" + LOOPBACK),
                    "Keycloak's environment: " + arg);
        }
        assertEquals(LOOPBACK, options.get("http-host"), "Keycloak's HTTP host");
        assertTrue(options.containsKey("http-management-port"), "the management interface has its port");
        // Keycloak: a management option not set is inherited from the HTTP server's (docs "Configuring the
        // Management Interface"; 26.5's ManagementPropertyMappers maps http-management-host from http-host)
        assertEquals(LOOPBACK, options.getOrDefault("http-management-host", options.get("http-host")),
                "Keycloak's management interface host");
        assertFalse(options.containsKey("https-port") || options.containsKey("https-management-port"),
                "an HTTPS port: " + options);
        assertNoDebugPort(keycloak);
    }

    @Test
    void kafkasBrokerAndControllerListenOnLoopbackOnly() throws Exception {
        Started kafka = start("kafka_prepare; kafka_start").get("kafka");
        Path config = state.resolve("kafka/server.properties");
        assertTrue(kafka.args().contains(config.toString()), "the broker runs on the copy: " + kafka.args());
        assertFalse(kafka.args().stream().anyMatch(a -> a.contains("listeners") || a.contains("--override")),
                "the command line changes the listeners: " + kafka.args());
        assertNoDebugPort(kafka);

        Properties props = new Properties();
        props.load(new StringReader(Files.readString(config)));
        Map<String, String> listeners = listeners(props.getProperty("listeners"));
        // every listener the protocol map names is bound, each on 127.0.0.1 ("NAME://:port" would be every interface)
        assertEquals(Arrays.stream(props.getProperty("listener.security.protocol.map").split(","))
                .map(e -> e.trim().split(":")[0]).toList(), List.copyOf(listeners.keySet()));
        assertTrue(listeners.containsKey(props.getProperty("inter.broker.listener.name")), "the broker's listener");
        assertTrue(listeners.containsKey(props.getProperty("controller.listener.names")), "the controller's listener");
        listeners.forEach((name, host) -> assertEquals(LOOPBACK, host, name + " listener's host"));
        // advertised addresses are what clients are told to connect to, not bound: they must be this machine's
        // loopback (the broker's says localhost, which clients resolve to 127.0.0.1, or ::1 and then 127.0.0.1)
        listeners(props.getProperty("advertised.listeners")).forEach((name, host) -> assertTrue(
                host.equals(LOOPBACK) || host.equals("localhost"), name + " advertised as " + host));
        for (String voter : props.getProperty("controller.quorum.bootstrap.servers").split(",")) {
            assertEquals(LOOPBACK, voter.trim().replaceFirst(":\\d+$", ""), "the controller's quorum address");
        }
    }

    /** NAME://HOST:PORT,... as NAME -> HOST. */
    private static Map<String, String> listeners(String value) {
        Map<String, String> hosts = new LinkedHashMap<>();
        for (String listener : value.split(",")) {
            Matcher m = Pattern.compile("^([A-Za-z_]+)://(.*):(\\d+)$").matcher(listener.trim());
            assertTrue(m.matches(), "a listener: " + listener);
            hosts.put(m.group(1), m.group(2));
        }
        return hosts;
    }

    /** The value of a postgresql.conf setting: its last line not commented out wins. */
    private static String setting(List<String> conf, String name) {
        String value = null;
        for (String line : conf) {
            Matcher m = Pattern.compile("^\\s*" + name + "\\s*=\\s*(.*?)\\s*(#.*)?$").matcher(line);
            if (m.matches()) {
                value = m.group(1);
            }
        }
        return value;
    }

    /** A JVM debugger or JMX port opened on the command line would listen on every interface. */
    private static void assertNoDebugPort(Started started) {
        assertFalse(started.args().stream().anyMatch(a -> a.contains("jdwp") || a.contains("jmxremote")),
                started.name() + ": " + started.args());
    }

    private record Started(String name, List<String> args, Map<String, String> env) {
    }

    /**
     * Runs {@code script} with ./bloc's libraries on the test's state folder, start_bg recording each start in
     * started/NAME.args and NAME.env (NUL-separated); the starts, in their order.
     */
    private Map<String, Started> start(String script) throws IOException, InterruptedException {
        int exit = BlocShell.run(state.resolve("out.log"), """
                STATE="$1"; DIST="$1/dist"; LOGS="$1/logs"; RUN="$1/run"; mkdir -p "$LOGS" "$RUN" "$1/started"
                source platform/lib/secrets.sh; source platform/lib/infra.sh; source platform/lib/services.sh
                PG_VERSION=test; as_pg() { "$@"; }; JAVA="$1/java"
                mkdir -p "$(dirname "$KAFKA_ARTIFACT")"; touch "$KAFKA_ARTIFACT"
                start_bg() {
                  local name="$1"; shift 2
                  printf '%s\\0' "$@" > "$STATE/started/$name.args"
                  env -0 > "$STATE/started/$name.env"
                  echo "$name" >> "$STATE/started/order"
                }
                """ + script, state.toString());
        assertEquals(0, exit, script + ": " + Files.readString(state.resolve("out.log")));
        Map<String, Started> started = new LinkedHashMap<>();
        for (String name : Files.readAllLines(state.resolve("started/order"))) {
            List<String> args = Arrays.asList(Files.readString(state.resolve("started/" + name + ".args")).split("\0"));
            Map<String, String> env = new LinkedHashMap<>();
            for (String entry : Files.readString(state.resolve("started/" + name + ".env")).split("\0")) {
                int eq = entry.indexOf('=');
                if (eq > 0) {
                    env.put(entry.substring(0, eq), entry.substring(eq + 1));
                }
            }
            started.put(name, new Started(name, args, env));
        }
        return started;
    }
}
