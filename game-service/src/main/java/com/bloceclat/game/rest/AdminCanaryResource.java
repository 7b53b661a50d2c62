package com.bloceclat.game.rest;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.game.messaging.CanaryPublisher;

import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** The sending end of the synthetic Kafka round trip that leaderboard-service completes. */
@Path("/api/admin/canary")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AdminCanaryResource {

    @Inject
    CanaryPublisher publisher;

    @POST
    @RolesAllowed("admin")
    @Operation(summary = "Publish a canary on Kafka topic bloc-canary; 202 once the broker has it")
    public Uni<Response> send() {
        return publisher.publish()
                .map(canary -> Response.accepted(Map.of("id", canary.id())).build());
    }
}
