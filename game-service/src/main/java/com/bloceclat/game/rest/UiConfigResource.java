package com.bloceclat.game.rest;

import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.game.config.GameConfig;

/** The browser's runtime configuration: where the other services and Keycloak are for this deployment. */
@Path("/config.json")
@PermitAll
public class UiConfigResource {

    /** The body of {@code GET /config.json}. */
    public record UiConfig(String solverUrl, String leaderboardUrl, String keycloakUrl, String realm, String clientId) {
    }

    @Inject
    GameConfig.Ui ui;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Public: the web UI's runtime configuration (service and Keycloak URLs, realm, client id)")
    public Response config() {
        UiConfig body = new UiConfig(ui.solverUrl(), ui.leaderboardUrl(), ui.keycloakUrl(), ui.realm(), ui.clientId());
        return Response.ok(body).header("Cache-Control", "no-cache").build();
    }
}
