package com.bloceclat.game.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import com.bloceclat.common.security.Caller;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.DailyView;

import io.quarkus.security.identity.SecurityIdentity;

/** The daily challenge, for the UI's entry to it: play one with {@code POST /api/games {"level", "daily": true}}. */
@Path("/api/daily")
@Produces(MediaType.APPLICATION_JSON)
public class DailyResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    GameService games;

    @GET
    @Operation(summary = "Today's daily challenge", description = "Today's UTC date, when it ends, and every level; "
            + "with a bearer token, per level whether the caller already started a daily game of it today (a new "
            + "one is then practice) and finished one. Open to guests, who may play it too (their games never "
            + "count).")
    @APIResponse(responseCode = "200", description = "Today's challenge")
    public DailyView today() {
        if (identity.isAnonymous()) {
            return games.daily(new Requester(null, null, null));
        }
        Caller caller = Caller.of(identity);
        return games.daily(new Requester(caller.subject(), caller.name(), null));
    }
}
