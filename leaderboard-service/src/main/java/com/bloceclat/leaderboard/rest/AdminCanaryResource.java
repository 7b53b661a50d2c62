package com.bloceclat.leaderboard.rest;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.leaderboard.Canary;

import io.quarkus.security.Authenticated;

/** The receiving end of the synthetic Kafka round trip started by game-service's POST /api/admin/canary. */
@Path("/api/leaderboards/admin/canary")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AdminCanaryResource {

    public record CanarySeen(UUID id, OffsetDateTime sentAt, OffsetDateTime seenAt) {
    }

    @GET
    @Path("/{id}")
    @RolesAllowed("admin")
    @Operation(summary = "When the canary with this id was seen on Kafka; 404 until it has been")
    public CanarySeen get(@PathParam("id") String id) {
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("Canary id must be a UUID, got '" + id + "'");
        }
        Canary canary = Canary.findById(uuid);
        if (canary == null) {
            throw new NotFoundException("No canary " + uuid + " has been seen yet");
        }
        return new CanarySeen(canary.id, canary.sentAt, canary.seenAt);
    }
}
