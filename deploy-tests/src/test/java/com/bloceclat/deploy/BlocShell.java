package com.bloceclat.deploy;

import java.io.IOException;
import java.nio.file.Path;
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
}
