package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * k8s/postgres.yaml's init script, run on a real PostgreSQL: each service's role (and Keycloak's) reaches its own
 * database and no other, so a service, or its password, cannot write another's data (game-service cannot write
 * leaderboard records). Before, every service and Keycloak logged in as one superuser.
 */
class DatabaseRolesTest {

    /** Role and the database it owns, as the Deployments name them (KubernetesManifestsTest checks that side). */
    static final Map<String, String> OWN = Map.of("bloc_game", "bloc_game", "bloc_leaderboard", "bloc_leaderboard",
            "keycloak", "keycloak");

    static EmbeddedPostgres postgres;

    @BeforeAll
    static void initialised() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            for (String statement : initStatements()) {
                s.execute(statement);
            }
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (postgres != null) {
            postgres.close();
        }
    }

    /** The SQL of the init script's here-document, with the passwords psql would substitute. */
    static List<String> initStatements() throws IOException {
        String script = null;
        try (InputStream in = Files.newInputStream(ServiceModule.ROOT.resolve("k8s/postgres.yaml"))) {
            YAMLParser parser = new YAMLFactory().createParser(in);
            for (JsonNode doc : new ObjectMapper().readValues(parser, JsonNode.class).readAll()) {
                if ("postgres-init".equals(doc.path("metadata").path("name").asText())) {
                    script = doc.path("data").path("10-roles.sh").asText();
                }
            }
        }
        assertTrue(script != null && script.contains("<<'SQL'\n"), "postgres-init's 10-roles.sh");
        String sql = script.substring(script.indexOf("<<'SQL'\n") + 8, script.lastIndexOf("SQL"));
        for (String role : List.of("game", "leaderboard", "keycloak")) {
            sql = sql.replace(":'" + role + "_password'", "'pw-" + role + "'");
        }
        assertTrue(!sql.contains(":'"), "every psql variable substituted: " + sql);
        return Arrays.stream(sql.split(";")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    @Test
    void eachRoleWritesItsOwnDatabase() {
        OWN.forEach((role, database) -> assertDoesNotThrow(() -> {
            try (Connection c = postgres.getDatabase(role, database).getConnection();
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE written_by_owner (id int)");
                s.execute("INSERT INTO written_by_owner VALUES (1)");
            }
        }, role + " in " + database));
    }

    @Test
    void noRoleConnectsToAnotherDatabase() {
        OWN.forEach((role, own) -> OWN.values().stream().filter(d -> !d.equals(own)).forEach(database -> {
            SQLException refused = assertThrows(SQLException.class,
                    () -> postgres.getDatabase(role, database).getConnection().close(), role + " in " + database);
            assertEquals("42501", refused.getSQLState(), role + " in " + database + ": " + refused.getMessage());
        }));
    }

    @Test
    void noServiceRoleIsASuperuserOrMayCreateRolesOrDatabases() throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
                var r = s.executeQuery("SELECT rolname FROM pg_roles WHERE rolname IN ('bloc_game', "
                        + "'bloc_leaderboard', 'keycloak') AND NOT rolsuper AND NOT rolcreaterole AND NOT rolcreatedb")) {
            int n = 0;
            while (r.next()) {
                n++;
            }
            assertEquals(3, n);
        }
    }
}
