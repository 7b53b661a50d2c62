package com.bloceclat.game.rest;

import java.net.URI;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;

import com.bloceclat.common.security.Caller;
import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.Level;
import com.bloceclat.game.service.ClientLimits;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.RaceQueue;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.MatchView;
import com.bloceclat.game.service.Views.TicketView;

import io.quarkus.security.Authenticated;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;

/**
 * Matches. Versus AI: the caller plays seat 0 through {@code /api/games/{id}}; game-service plays seat 1 through
 * solver-service at the configured pace.
 */
@Path("/api/matches")
@Produces(MediaType.APPLICATION_JSON)
public class MatchResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    MatchService matches;

    @Inject
    RaceQueue queue;

    @Inject
    ClientLimits limits;

    public record NewMatchRequest(
            @NotBlank(message = "is required: VERSUS_AI, TWO_PLAYERS or ONLINE_RACE") String mode,
            @NotBlank(message = "name a level: EASY, MEDIUM, HARD, EXPERT or DIABOLICAL") String level,
            @Min(value = 1, message = "must be between 1 and 5") @Max(value = 5, message = "must be between 1 and 5")
            Integer strength) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a match", description = "VERSUS_AI (strength 1-5, default 3): the first game to end "
            + "sets the score to beat; the other plays on until it beats it (and wins) or ends. TWO_PLAYERS: two "
            + "games on one seed for one device, seat 1 plays once seat 0's game has ended, best score wins. "
            + "ONLINE_RACE (login needed): 201 with the match when another player waits on the level, else 202 with "
            + "a queue ticket; both play at once, best score wins when both have ended.")
    @APIResponses({
            @APIResponse(responseCode = "201", description = "The match; Location is its URL"),
            @APIResponse(responseCode = "202", description = "ONLINE_RACE: queued; Location is the ticket"),
            @APIResponse(responseCode = "401", description = "ONLINE_RACE without a login"),
            @APIResponse(responseCode = "400", description = "Unknown mode or level, strength out of range"),
            @APIResponse(responseCode = "429", description = "The client has as many versus-AI matches or games "
                    + "open as it may (bloc.limits.ai-matches-per-client, games-per-client), or has started as many "
                    + "games lately (starts-per-client within starts-window); Retry-After says when a place frees "
                    + "itself at the latest",
                    headers = @Header(name = "Retry-After", description = "seconds")),
            @APIResponse(responseCode = "503", description = "The database is unavailable; Retry-After",
                    headers = @Header(name = "Retry-After", description = "seconds")) })
    public Response create(@Valid @NotNull(message = "send {\"mode\", \"level\"}") NewMatchRequest body,
            @Context HttpServerRequest http) {
        Level level = GameResource.level(body.level());
        MatchView match;
        switch (body.mode()) {
            case "VERSUS_AI" -> match = limited(http, ClientLimits.Start.AI_MATCH,
                    () -> matches.versusAi(level, body.strength() == null ? 3 : body.strength(), requester(null)));
            case "TWO_PLAYERS" -> match = limited(http, ClientLimits.Start.TWO_PLAYER_MATCH,
                    () -> matches.twoPlayers(level, requester(null)));
            case "ONLINE_RACE" -> {
                Requester me = requester(null);
                if (me.guest()) {
                    throw new NotAuthorizedException("Online races need a login: send a bearer token.", "Bearer");
                }
                RaceQueue.Joined joined = queue.join(level, me);
                if (joined.match() == null) {
                    return Response.accepted(joined.ticket())
                            .location(URI.create("/api/matches/queue/" + joined.ticket().ticket())).build();
                }
                match = joined.match();
            }
            default -> throw new BadRequestException("mode: '" + body.mode() + "' is not a match mode; expected "
                    + "VERSUS_AI, TWO_PLAYERS or ONLINE_RACE");
        }
        return Response.created(URI.create("/api/matches/" + match.id())).entity(match).build();
    }

    @GET
    @Path("/queue/{ticket}")
    @Authenticated
    @Operation(summary = "A place in the online race queue: waiting, or the match once made")
    public TicketView ticket(@PathParam("ticket") String ticket) {
        return queue.ticket(uuid(ticket, "race ticket"), requester(null));
    }

    @DELETE
    @Path("/queue/{ticket}")
    @Authenticated
    @Operation(summary = "Leave the online race queue")
    @APIResponse(responseCode = "409", description = "The match is made already")
    public Response leave(@PathParam("ticket") String ticket) {
        queue.leave(uuid(ticket, "race ticket"), requester(null));
        return Response.noContent().build();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A match: both games' states, the score to beat and the result", description = "Nothing "
            + "of the future: the seed (the match's and each game's) only once the match has finished; versus AI, the "
            + "AI never plays past the end of the person's round while the person plays; versus AI and online race, "
            + "while your game plays, the other seat's game when it is in a later round than yours is shown as it "
            + "was at the end of your round (board, streak, miss, score; no pieces; gridRound set), its round and "
            + "status live.")
    @APIResponses({
            @APIResponse(responseCode = "403", description = "A match the caller does not play in"),
            @APIResponse(responseCode = "404", description = "No such match") })
    public MatchView state(@PathParam("id") String id,
            @Parameter(description = "A guest's game token") @HeaderParam(GameResource.GAME_TOKEN) String token) {
        return matches.state(uuid(id, "match"), requester(token));
    }

    /** Starts a match within the client's limits (ClientLimits), in one transaction with the check. */
    private MatchView limited(HttpServerRequest http, ClientLimits.Start start, Supplier<MatchView> create) {
        String client = ClientKey.of(identity, http);
        return QuarkusTransaction.requiringNew().call(() -> {
            limits.reserve(client, start);
            MatchView created = create.get();
            limits.started(client, null, created.id());
            return created;
        });
    }

    private static UUID uuid(String id, String what) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException("There is no " + what + " '" + id + "': " + what + " ids are UUIDs.");
        }
    }

    private Requester requester(String token) {
        if (identity.isAnonymous()) {
            return new Requester(null, null, token);
        }
        Caller caller = Caller.of(identity);
        return new Requester(caller.subject(), caller.name(), token);
    }
}
