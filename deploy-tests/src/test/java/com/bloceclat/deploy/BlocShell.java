package com.bloceclat.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a piece of ./bloc's shell library as ./bloc does: from the repository, under set -euo pipefail. */
final class BlocShell {

    private BlocShell() {
    }

    /**
     * Runs {@code script} after platform/lib/common.sh is sourced, with {@code args} as $1, $2...; its output (both
     * streams) written to {@code out}. Its exit code; an AssertionError when it has not ended within 60 s.
     */
    static int run(Path out, String script, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", "-c",
                "set -euo pipefail; ROOT=\"$PWD\"; source platform/lib/common.sh; " + script, "bash"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(ServiceModule.ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(script + " did not end in 60 s");
        }
        return p.exitValue();
    }

    /** Writes an executable script. */
    static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * Stand-ins for PostgreSQL's initdb and single-user server in {@code state}/postgres/test/bin (PG_VERSION "test"),
     * making the folders a real one would: initdb the cluster with its three databases (base/ a folder each) and a
     * postgresql.conf of commented defaults; the single-user server the two databases of the set-up. The server logs
     * each run to $FAKE_STATE/single.log and fails once while $FAKE_STATE/fail-once exists (its statements cut short).
     */
    static void postgresStandIns(Path state) throws IOException {
        Path bin = Files.createDirectories(state.resolve("postgres/test/bin"));
        executable(bin.resolve("initdb"), """
                #!/bin/bash
                while [[ $# -gt 0 ]]; do [[ "$1" == -D ]] && d="$2"; shift; done
                mkdir -p "$d/base/1" "$d/base/4" "$d/base/5"
                echo 17 > "$d/PG_VERSION"
                printf "#listen_addresses = 'localhost'\\n#port = 5432\\n" > "$d/postgresql.conf"
                """);
        executable(bin.resolve("postgres"), """
                #!/bin/bash
                cat > /dev/null
                [[ -z "${FAKE_STATE:-}" ]] || echo run >> "$FAKE_STATE/single.log"
                while [[ $# -gt 0 ]]; do [[ "$1" == -D ]] && d="$2"; shift; done
                if [[ -f "${FAKE_STATE:-/nonexistent}/fail-once" ]]; then rm "$FAKE_STATE/fail-once"; exit 1; fi
                mkdir -p "$d/base/16384" "$d/base/16385"
                """);
    }
}
