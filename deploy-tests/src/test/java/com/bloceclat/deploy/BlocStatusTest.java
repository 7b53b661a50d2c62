package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./bloc status} (docs/platform.md "Commands"): each component of the stack with its PID, ports and health, read
 * from the PID files {@code ./bloc up} writes, on a state folder of the test's. A component without a live process is
 * stopped, and says so when another process holds its port; one whose process runs but does not answer its health
 * check is "not ready" and names its log.
 */
class BlocStatusTest {

    private static final List<String> COMPONENTS = List.of("postgres", "kafka", "keycloak", "solver-service-1",
            "solver-service-2", "game-service", "leaderboard-service-1", "leaderboard-service-2");

    @TempDir
    Path state;

    /** {@code ./bloc status}'s lines by component: {@code [PID, PORTS, HEALTH...]}. */
    private Map<String, String> status() throws IOException, InterruptedException {
        Path out = state.resolve("out.log");
        int exit = BlocShell.run(out, """
                STATE="$1"; DIST="$1/dist"; LOGS="$1/logs"; RUN="$1/run"; mkdir -p "$LOGS" "$RUN"
                source platform/lib/secrets.sh; source platform/lib/infra.sh; source platform/lib/services.sh
                source platform/lib/stack.sh
                cmd_status
                """, state.toString());
        String text = Files.readString(out);
        assertEquals(0, exit, text);
        List<String> lines = text.lines().toList();
        assertTrue(lines.get(0).matches("COMPONENT\\s+PID\\s+PORT\\s+HEALTH"), text);
        return lines.stream().skip(1).collect(Collectors.toMap(l -> l.split("\\s+")[0],
                l -> l.substring(l.indexOf(' ')).strip()));
    }

    @Test
    void withNothingRunningEachComponentIsStoppedWithItsPorts() throws Exception {
        Map<String, String> lines = status();
        assertEquals(Set.copyOf(COMPONENTS), lines.keySet());
        for (String c : COMPONENTS) {
            assertTrue(lines.get(c).matches("-\\s+\\S+\\s+stopped.*"), c + ": " + lines.get(c));
        }
        assertTrue(lines.get("postgres").matches("-\\s+15432\\s+stopped.*"), lines.get("postgres"));
        assertTrue(lines.get("kafka").matches("-\\s+19092,19093\\s+stopped.*"), lines.get("kafka"));
        assertTrue(lines.get("game-service").matches("-\\s+8080\\s+stopped.*"), lines.get("game-service"));
    }

    @Test
    void aStoppedComponentWhosePortAnotherProcessHoldsSaysSo() throws Exception {
        ServerSocket other;
        try {
            other = new ServerSocket(8080, 1, InetAddress.getLoopbackAddress());
        } catch (IOException taken) {
            Assumptions.abort("port 8080 is in use on this machine already");
            return;
        }
        try (other) {
            assertEquals("- 8080 stopped, but its port is used by another process",
                    status().get("game-service").replaceAll("\\s+", " "));
        }
    }

    @Test
    void aRunningComponentThatDoesNotAnswerItsHealthCheckIsNotReadyAndNamesItsLog() throws Exception {
        // a process carrying the service's marker, as ./bloc up starts it, that serves nothing
        String marker = "-Dbloc.component=leaderboard-service-2";
        Process p = new ProcessBuilder("bash", "-c", "sleep 300; : " + marker + " " + UUID.randomUUID()).start();
        try {
            Files.createDirectories(state.resolve("run"));
            Files.writeString(state.resolve("run/leaderboard-service-2.pid"), p.pid() + "\n");
            Map<String, String> lines = status();
            assertEquals(p.pid() + " 8084 not ready (see ./bloc logs leaderboard-service-2)",
                    lines.get("leaderboard-service-2").replaceAll("\\s+", " "));
            assertTrue(lines.get("leaderboard-service-1").contains("stopped"), lines.toString());
        } finally {
            p.destroyForcibly();
        }
    }
}
