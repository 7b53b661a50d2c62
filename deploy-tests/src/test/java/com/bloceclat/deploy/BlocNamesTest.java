package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The names {@code ./bloc logs NAME} takes (docs/platform.md), resolved by the script's own function
 * ({@code resolve_component} in platform/lib/stack.sh): a bare {@code leaderboard} used to be "unknown component".
 */
class BlocNamesTest {

    @Test
    void theShortNamesTheDocsGiveResolveToTheirComponents() throws Exception {
        Map<String, String> names = Map.of("game", "game-service", "solver", "solver-service-1",
                "solver-2", "solver-service-2", "leaderboard", "leaderboard-service-1",
                "leaderboard-2", "leaderboard-service-2", "pg", "postgres", "kafka", "kafka", "build", "build",
                "e2e", "e2e", "no-such-thing", "");
        for (var e : names.entrySet()) {
            assertEquals(e.getValue(), resolve(e.getKey()), e.getKey());
        }
    }

    private static String resolve(String name) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c",
                "source platform/lib/services.sh && source platform/lib/stack.sh && resolve_component \"$1\"", "bash", name)
                .directory(ServiceModule.ROOT.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
