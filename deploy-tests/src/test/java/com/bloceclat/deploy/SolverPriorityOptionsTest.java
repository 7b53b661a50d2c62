package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * solver-service's public searches run at the lowest OS priority only when its JVM starts with
 * {@code WorkerPool.PRIORITY_OPTIONS} (docs/solver-service.md): the image, {@code ./bloc up} and the service's own
 * tests each start it with a copy of them, which must stay the same options (a copy that drifted runs public searches
 * at the services' priority, and the service only warns in its log).
 */
class SolverPriorityOptionsTest {

    /** {@code WorkerPool.PRIORITY_OPTIONS}, its string literals joined as the compiler does. */
    private static String priorityOptions() throws IOException {
        String source = Files.readString(ServiceModule.ROOT.resolve(
                "solver-service/src/main/java/com/bloceclat/solver/service/WorkerPool.java"));
        Matcher constant = Pattern.compile("PRIORITY_OPTIONS\\s*=([^;]*);").matcher(source);
        assertTrue(constant.find(), "WorkerPool.PRIORITY_OPTIONS");
        StringBuilder joined = new StringBuilder();
        Matcher literal = Pattern.compile("\"([^\"]*)\"").matcher(constant.group(1));
        while (literal.find()) {
            joined.append(literal.group(1));
        }
        return joined.toString().strip();
    }

    @Test
    void theImageBlocUpAndTheTestsStartTheSolverWithThePoolsPriorityOptions() throws IOException {
        String options = priorityOptions();
        assertTrue(options.startsWith("-XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=19"), options);

        String dockerfile = Files.readString(ServiceModule.ROOT.resolve("solver-service/src/main/docker/Dockerfile.jvm"));
        Matcher append = Pattern.compile("(?m)^ENV JAVA_OPTS_APPEND=\"([^\"]*)\"").matcher(dockerfile);
        assertTrue(append.find(), "JAVA_OPTS_APPEND in Dockerfile.jvm");
        assertTrue((" " + append.group(1) + " ").contains(" " + options + " "), "the image: " + append.group(1));

        String services = Files.readString(ServiceModule.ROOT.resolve("platform/lib/services.sh"));
        Matcher opts = Pattern.compile("(?m)^SOLVER_JVM_OPTS=\\(([^)]*)\\)").matcher(services);
        assertTrue(opts.find(), "SOLVER_JVM_OPTS in platform/lib/services.sh");
        assertEquals(options, opts.group(1).strip(), "./bloc up");

        String pom = Files.readString(ServiceModule.ROOT.resolve("solver-service/pom.xml"));
        assertTrue(pom.contains("<argLine>" + options + "</argLine>"), "solver-service's tests (surefire's argLine)");
    }
}
