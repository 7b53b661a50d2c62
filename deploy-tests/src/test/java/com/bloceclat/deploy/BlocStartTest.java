package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How ./bloc starts a long-running component ({@code start_bg} in platform/lib/common.sh): its PID file is what
 * {@code ./bloc down}, {@code status} and the next {@code up} know it by. Before, a PID file that could not be written
 * (a full disk) ended the script and left the process running, unknown to all three, holding its ports.
 */
class BlocStartTest {

    @TempDir
    Path state;

    /** Written into the started command's line, to find it among the machine's processes. */
    private final String marker = "bloc-start-test-" + UUID.randomUUID();

    @AfterEach
    void stopLeftovers() {
        started().forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void aComponentIsStartedWithItsPidFile() throws Exception {
        assertEquals(0, startBg());
        long pid = Long.parseLong(Files.readString(state.resolve("run/sleeper.pid")).trim());
        assertEquals(List.of(pid), started().stream().map(ProcessHandle::pid).toList(),
                "the PID file names the process started");
    }

    @Test
    void aComponentWhosePidFileCannotBeWrittenIsStoppedAgain() throws Exception {
        // no file can be made where the PID file goes (its folder is a file), as none can on a full disk
        Files.writeString(state.resolve("run"), "");
        assertNotEquals(0, startBg(), "the start says it failed");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!started().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(List.of(), started(), "no process left running without its PID file");
        String out = Files.readString(state.resolve("out.log"));
        assertTrue(out.contains("PID file"), out);
    }

    @Test
    void aPidFileCountsOnlyForALiveProcessThatCarriesTheComponentsMarker() throws Exception {
        // another program now holds the PID (a reboot, a PID reused): never taken for the component, so never stopped
        Process other = new ProcessBuilder("sleep", "300").start();
        try {
            Files.createDirectories(state.resolve("run"));
            Files.writeString(state.resolve("run/kafka.pid"), other.pid() + "\n");
            assertEquals(1, running("kafka", "-Dbloc.component=kafka"), "a live process without the marker");
            assertEquals(0, running("kafka", "sleep 300"), "the same, with a marker its command line carries");
            assertEquals(String.valueOf(other.pid()), Files.readString(state.resolve("out.log")).trim());
            other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            assertEquals(1, running("kafka", "sleep 300"), "a process no longer alive");
            Files.writeString(state.resolve("run/kafka.pid"), "12ab\n");
            assertEquals(1, running("kafka", "sleep"), "a PID file that is not a number");
        } finally {
            other.destroyForcibly();
        }
    }

    /** {@code running NAME MARKER} of common.sh (its PID in out.log when it counts); its exit code. */
    private int running(String name, String marker) throws IOException, InterruptedException {
        return BlocShell.run(state.resolve("out.log"), "RUN=\"$1/run\"; running \"$2\" \"$3\"", state.toString(), name,
                marker);
    }

    /** The processes alive whose command line carries this test's marker (the command and its sleep's parent). */
    private List<ProcessHandle> started() {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(h -> h.info().arguments().map(a -> Arrays.asList(a).contains(marker)).orElse(false))
                .toList();
    }

    /** start_bg of a shell that sleeps, as this user, under set -e; its exit code. */
    private int startBg() throws IOException, InterruptedException {
        return BlocShell.run(state.resolve("out.log"), "RUN=\"$1/run\"; [[ -e \"$RUN\" ]] || mkdir \"$RUN\"; "
                + "start_bg sleeper \"$1/sleeper.log\" bash -c 'sleep 300; exit 0' \"$2\"", state.toString(), marker);
    }
}
