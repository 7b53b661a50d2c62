package com.bloceclat.game.rest;

import java.net.URI;

import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;

import com.bloceclat.common.security.Caller;
import com.bloceclat.game.service.PrivateRaceService;
import com.bloceclat.game.service.PrivateRaceService.LinkView;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.MatchView;

import io.quarkus.security.identity.SecurityIdentity;

/** Private races by link (PrivateRaceService): make a link, look at it, join it. Every operation needs a login. */
@Path("/api/races/private")
@Produces(MediaType.APPLICATION_JSON)
public class PrivateRaceResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    PrivateRaceService races;

    public record NewLinkRequest(
            @NotBlank(message = "name a level: EASY, MEDIUM, HARD, EXPERT or DIABOLICAL") String level) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Make a private race link", description = "The first other logged-in player who joins it "
            + "before it expires (bloc.private-race.ttl) races you at once on its level and a new seed. The web UI's "
            + "link is #/invite/{code}.")
    @APIResponses({
            @APIResponse(responseCode = "201", description = "The link; Location is its URL"),
            @APIResponse(responseCode = "400", description = "Unknown level"),
            @APIResponse(responseCode = "401", description = "No login"),
            @APIResponse(responseCode = "409", description = "Too many links open (bloc.private-race.open-per-player)") })
    public Response create(@Valid @NotNull(message = "send {\"level\"}") NewLinkRequest body) {
        LinkView link = races.create(GameResource.level(body.level()), requester());
        return Response.created(URI.create("/api/races/private/" + link.code())).entity(link).build();
    }

    @GET
    @Path("/{code}")
    @Operation(summary = "A private race link: its level, its maker, OPEN / STARTED / EXPIRED; the match id for its "
            + "two players only")
    @APIResponses({
            @APIResponse(responseCode = "401", description = "No login"),
            @APIResponse(responseCode = "404", description = "No such link") })
    public LinkView get(@PathParam("code") String code) {
        return races.get(code, requester());
    }

    @POST
    @Path("/{code}/join")
    @Operation(summary = "Join a private race: the match at once (you play seat 1)")
    @APIResponses({
            @APIResponse(responseCode = "200", description = "The match (the same one again for its guest)"),
            @APIResponse(responseCode = "401", description = "No login"),
            @APIResponse(responseCode = "404", description = "No such link"),
            @APIResponse(responseCode = "409", description = "Your own link, one another player used, or one whose "
                    + "maker has as many games open, or started lately, as they may (bloc.limits.games-per-client, "
                    + "starts-per-client)"),
            @APIResponse(responseCode = "410", description = "The link expired"),
            @APIResponse(responseCode = "429", description = "You have as many games open, or started lately, as "
                    + "you may (bloc.limits.games-per-client, starts-per-client); Retry-After says when a place frees "
                    + "itself at the latest",
                    headers = @Header(name = "Retry-After", description = "seconds")) })
    public MatchView join(@PathParam("code") String code) {
        return races.join(code, requester());
    }

    private Requester requester() {
        if (identity.isAnonymous()) {
            return new Requester(null, null, null);
        }
        Caller caller = Caller.of(identity);
        return new Requester(caller.subject(), caller.name(), null);
    }
}
