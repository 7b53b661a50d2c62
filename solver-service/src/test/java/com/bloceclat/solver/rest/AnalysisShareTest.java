package com.bloceclat.solver.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/**
 * How many of a client's public requests one analysis counts as (docs/solver-service.md: "as many as public searches'
 * time caps fit in its worst time on a worker ... 9 with the defaults; at most the burst"). The service's tests run
 * with a burst of 3, so they cannot tell 9 from any other number above it: this reads the shipped defaults.
 */
class AnalysisShareTest {

    @Test
    void anAnalysisCountsAsNinePublicSearchesWithTheShippedSettings() throws IOException {
        Properties shipped = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            shipped.load(in);
        }
        assertEquals(9, SolverResource.analysisRequests(duration(shipped, "bloc.solver.analyse.time-cap"),
                duration(shipped, "bloc.solver.analyse.solve-time"), duration(shipped, "bloc.solver.public.time-cap"),
                Integer.parseInt(shipped.getProperty("bloc.solver.public.burst"))));
    }

    @Test
    void anAnalysisCountsAsItsWorkerTimeInSearchesAtLeastOneAndAtMostTheBurst() {
        // 1,500 + 7 × 100 ms of worker time, in time caps of 250 ms: 8.8, so 9
        assertEquals(9, SolverResource.analysisRequests(Duration.ofMillis(1500), Duration.ofMillis(100),
                Duration.ofMillis(250), 20));
        assertEquals(3, SolverResource.analysisRequests(Duration.ofMillis(1500), Duration.ofMillis(100),
                Duration.ofMillis(250), 3), "more could never be admitted");
        assertEquals(1, SolverResource.analysisRequests(Duration.ofMillis(10), Duration.ZERO, Duration.ofSeconds(2),
                20), "never less than the one admitted");
    }

    /** A shipped duration: milliseconds or seconds, as application.properties writes them. */
    private static Duration duration(Properties shipped, String key) {
        String value = shipped.getProperty(key).strip();
        return value.endsWith("ms") ? Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)))
                : Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
    }
}
