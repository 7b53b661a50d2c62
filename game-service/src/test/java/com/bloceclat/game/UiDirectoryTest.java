package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * {@code bloc.ui.dir}: the test profile points it at {@code target/test-ui-dir}, which these tests fill while the
 * service runs (the directory is read on every request).
 */
@QuarkusTest
class UiDirectoryTest {

    private static final Path DIR = Path.of("target/test-ui-dir");

    private static void write(String path, String text) throws IOException {
        Path file = DIR.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void aFileOfTheDirectoryIsServedAndAChangeShowsWithoutRestart() throws IOException {
        write("assets/dev-probe.js", "console.log('first build');");
        given().when().get("/assets/dev-probe.js").then()
                .statusCode(200)
                .contentType(containsString("javascript"))
                .body(equalTo("console.log('first build');"));
        write("assets/dev-probe.js", "console.log('second build, longer');");
        given().when().get("/assets/dev-probe.js").then()
                .statusCode(200)
                .body(equalTo("console.log('second build, longer');"));
    }

    @Test
    void theUisPagesRunNoScriptButTheirOwnAndAreNeverFramedButTheApiAndSwaggerAreLeftAlone() {
        for (String page : List.of("/", "/index.html")) {
            given().when().get(page).then().statusCode(200)
                    .header("Content-Security-Policy", containsString("script-src 'self'"))
                    .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                    // the test profile's bloc.ui.* (application.properties' defaults)
                    .header("Content-Security-Policy", containsString(
                            "connect-src 'self' http://localhost:8081 http://localhost:8083 http://localhost:8180"))
                    .header("X-Content-Type-Options", equalTo("nosniff"))
                    .header("X-Frame-Options", equalTo("DENY"));
        }
        // Swagger UI's page has inline scripts: the policy would stop it
        given().when().get("/q/swagger-ui/").then().statusCode(200).header("Content-Security-Policy", nullValue());
        given().when().get("/q/openapi").then().statusCode(200).header("Content-Security-Policy", nullValue());
    }

    @Test
    void whatTheDirectoryLacksComesFromTheBundle() {
        given().when().get("/").then()
                .statusCode(200)
                .body(containsString("<title>Bloc Éclat</title>"));
        given().when().get("/no-such-file.js").then().statusCode(404);
    }

    @Test
    void apiQuarkusAndConfigPathsAreNeverTakenFromTheDirectory() throws IOException {
        write("api/games/info", "{\"service\": \"from the directory\"}");
        write("q/health/live", "from the directory");
        write("config.json", "{\"solverUrl\": \"from the directory\"}");
        given().when().get("/api/games/info").then().statusCode(200).body("service", equalTo("game-service"));
        given().when().get("/q/health/live").then().statusCode(200).body(not(containsString("from the directory")));
        given().when().get("/config.json").then().statusCode(200).body("solverUrl", equalTo("http://localhost:8081"));
    }
}
