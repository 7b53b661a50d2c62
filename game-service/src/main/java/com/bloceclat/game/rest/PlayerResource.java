package com.bloceclat.game.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.common.security.Caller;
import com.bloceclat.game.service.PlayerService;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;

@Path("/api/players")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class PlayerResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    PlayerService players;

    @GET
    @Path("/me")
    @Operation(summary = "The calling player: token subject, name and realm roles; records the player on first sight")
    public Caller me() {
        Caller caller = Caller.of(identity);
        players.seen(caller);
        return caller;
    }
}
