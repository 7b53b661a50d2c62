package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack's first set-up of its PostgreSQL cluster ({@code postgres_prepare} in platform/lib/infra.sh), with
 * stand-ins for initdb and the single-user server that make the folders a real one would (base/ gets a folder per
 * database). initdb's PG_VERSION was taken for a finished set-up, so one cut short after initdb (Ctrl-C, a full disk)
 * was never made again, and the services failed at every later start on a missing role or database.
 */
class BlocPostgresTest {

    @TempDir
    Path state;

    @BeforeEach
    void standIns() throws IOException {
        BlocShell.postgresStandIns(state);
    }

    @Test
    void aFirstSetUpCutShortAfterInitdbIsMadeAgainByTheNextStart() throws Exception {
        Files.createFile(state.resolve("fail-once"));
        assertNotEquals(0, prepare(), "the set-up that failed says so");
        Path data = state.resolve("postgres/data");
        assertTrue(Files.isRegularFile(data.resolve("PG_VERSION")), "initdb ran");

        assertEquals(0, prepare());
        assertEquals(5, databases(data), "both databases made the second time");
        assertTrue(Files.isRegularFile(data.resolve("bloc-set-up")));
        assertEquals(2, Files.readAllLines(state.resolve("single.log")).size());
    }

    @Test
    void aClusterSetUpBeforeTheMarkerIsKeptAndMarked() throws Exception {
        Path data = state.resolve("postgres/data");
        for (String db : List.of("1", "4", "5", "16384", "16385")) {
            Files.createDirectories(data.resolve("base").resolve(db));
        }
        Files.writeString(data.resolve("PG_VERSION"), "17\n");
        Files.writeString(data.resolve("base/16384/a-table"), "kept");

        assertEquals(0, prepare());
        assertTrue(Files.isRegularFile(data.resolve("base/16384/a-table")), "nothing made again");
        assertTrue(Files.isRegularFile(data.resolve("bloc-set-up")));
        assertTrue(Files.notExists(state.resolve("single.log")), "the databases were not made again");
    }

    private static long databases(Path data) throws IOException {
        try (Stream<Path> dirs = Files.list(data.resolve("base"))) {
            return dirs.filter(Files::isDirectory).count();
        }
    }

    /** postgres_prepare with the stand-ins (PG_VERSION "test"), as this user; its exit code. */
    private int prepare() throws IOException, InterruptedException {
        return BlocShell.run(state.resolve("out.log"), "STATE=\"$1\"; LOGS=\"$1/logs\"; mkdir -p \"$LOGS\"; "
                + "source platform/lib/infra.sh; PG_VERSION=test; as_pg() { \"$@\"; }; export FAKE_STATE=\"$1\"; "
                + "postgres_prepare", state.toString());
    }
}
