package com.bloceclat.game.rest;

import java.net.URI;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;

import com.bloceclat.common.security.Caller;
import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.Level;
import com.bloceclat.game.rest.GameRequests.MoveRequest;
import com.bloceclat.game.rest.GameRequests.NewGameRequest;
import com.bloceclat.game.rest.GameRequests.UndoRequest;
import com.bloceclat.game.service.ClientLimits;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.PlayerService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.HintView;
import com.bloceclat.game.service.Views.MoveView;
import com.bloceclat.game.service.Views.ReplayView;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;

/**
 * Solo games. Open to guests: a logged-in player (bearer token) owns a game by the token's subject; a guest owns it
 * by the game token answered at creation, sent back as header {@value #GAME_TOKEN}.
 */
@Path("/api/games")
@Produces(MediaType.APPLICATION_JSON)
public class GameResource {

    public static final String GAME_TOKEN = "X-Game-Token";

    private static final String TOKEN_DOC = "A guest's game token, as answered at creation; not needed with a "
            + "bearer token";

    @Inject
    SecurityIdentity identity;

    @Inject
    GameService games;

    @Inject
    PlayerService players;

    @Inject
    ObjectMapper mapper;

    @Inject
    ClientLimits limits;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a solo game", description = "Without seed or daily the seed is the server's, drawn "
            + "secretly (seedSource SERVER) and shown once the game has ended; only such a game of a logged-in "
            + "player can set a record. A given seed (a challenge link, seedSource CHOSEN) is shown at once and the "
            + "game never counts. daily: true plays today's challenge (seedSource DAILY, guests too): the same seed "
            + "for everyone this UTC day and level, derived from a server secret, shown to no one before the day is "
            + "over. A guest gets gameToken in the answer, to send as header X-Game-Token on every later call about "
            + "the game.")
    @APIResponses({
            @APIResponse(responseCode = "201", description = "The new game; Location is its URL"),
            @APIResponse(responseCode = "400", description = "Unknown level, both seed and daily, or practice "
                    + "without daily"),
            @APIResponse(responseCode = "409", description = "daily: true while the player's daily game of the "
                    + "level that counts is still in play: finish it, or ask for practice: true"),
            @APIResponse(responseCode = "429", description = "The client has as many games open as it may "
                    + "(bloc.limits.games-per-client), or has started as many lately (starts-per-client within "
                    + "starts-window); Retry-After says when a place frees itself at the latest",
                    headers = @Header(name = "Retry-After", description = "seconds")),
            @APIResponse(responseCode = "503", description = "The database is unavailable; Retry-After",
                    headers = @Header(name = "Retry-After", description = "seconds")) })
    public Response create(@Valid @NotNull(message = "send {\"level\": \"HARD\"}") NewGameRequest body,
            @Context HttpServerRequest http) {
        Level level = level(body.level());
        String client = ClientKey.of(identity, http);
        Requester me = requester(null); // the player seen (PlayerService) before the start's transaction begins
        GameView game = QuarkusTransaction.requiringNew().call(() -> {
            limits.reserve(client, ClientLimits.Start.GAME);
            GameView created = games.create(new GameService.NewGame(level, body.seed(),
                    Boolean.TRUE.equals(body.daily()), Boolean.TRUE.equals(body.practice())), me);
            limits.started(client, created.id(), null);
            return created;
        });
        return Response.created(URI.create("/api/games/" + game.id())).entity(game).build();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A game's state")
    @APIResponses({
            @APIResponse(responseCode = "200", description = "The state"),
            @APIResponse(responseCode = "403", description = "Another player's game, or a guest game without its "
                    + "token"),
            @APIResponse(responseCode = "404", description = "No such game") })
    public GameView state(@PathParam("id") String id, @Parameter(description = TOKEN_DOC) @HeaderParam(GAME_TOKEN) String token) {
        return games.state(gameId(id), requester(token));
    }

    @POST
    @Path("/{id}/moves")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Place a piece", description = "moveNumber is the client's count of placements: 1 for the "
            + "first, then the game's nextMoveNumber. A request repeated with the same number and placement is "
            + "answered again (repeated: true), never applied twice, if it is one of the game's last three "
            + "placements; an older one is 409.")
    @APIResponses({
            @APIResponse(responseCode = "200", description = "What happened and the new state"),
            @APIResponse(responseCode = "400", description = "A field missing or out of range"),
            @APIResponse(responseCode = "409", description = "An illegal placement, a move number out of order, "
                    + "reused for another placement or older than the game's last three placements, a finished game, "
                    + "or a game at its cap of events "
                    + "(bloc.limits.events-per-game)") })
    public MoveView move(@PathParam("id") String id, @Parameter(description = TOKEN_DOC) @HeaderParam(GAME_TOKEN) String token,
            @Valid @NotNull(message = "send {\"moveNumber\", \"slot\", \"row\", \"col\"}") MoveRequest body) {
        return games.move(gameId(id), requester(token), body.moveNumber(), body.slot(), body.row(), body.col());
    }

    @POST
    @Path("/{id}/undo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Take back the last placement of the round in progress; marks the game assisted",
            description = "Idempotent: undoing a move already undone answers the state again.")
    @APIResponses({
            @APIResponse(responseCode = "200", description = "The state after the undo"),
            @APIResponse(responseCode = "409", description = "Not the last placement of this round, a finished "
                    + "game, or a game at its cap of undos or events (bloc.limits.undos-per-game, events-per-game)") })
    public GameView undo(@PathParam("id") String id, @Parameter(description = TOKEN_DOC) @HeaderParam(GAME_TOKEN) String token,
            @Valid @NotNull(message = "send {\"moveNumber\": <the move to take back>}") UndoRequest body) {
        return games.undo(gameId(id), requester(token), body.moveNumber());
    }

    @POST
    @Path("/{id}/hint")
    @Operation(summary = "Ask solver-service how to play the rest of the round; marks the game assisted")
    @APIResponses({
            @APIResponse(responseCode = "200", description = "The suggested placements, by slot"),
            @APIResponse(responseCode = "409", description = "A finished game, or a game at its cap of hints or "
                    + "events (bloc.limits.hints-per-game, events-per-game)"),
            @APIResponse(responseCode = "429", description = "The client has as many hints being worked out as it "
                    + "may (bloc.limits.hints-in-flight-per-client); Retry-After",
                    headers = @Header(name = "Retry-After", description = "seconds")),
            @APIResponse(responseCode = "502", description = "solver-service answered with an error, or with an "
                    + "answer that does not fit; the game is unchanged"),
            @APIResponse(responseCode = "503", description = "No solver replica could take it (busy, unreachable) "
                    + "or the database is unavailable; Retry-After; the game is unchanged",
                    headers = @Header(name = "Retry-After", description = "seconds")) })
    public HintView hint(@PathParam("id") String id, @Parameter(description = TOKEN_DOC) @HeaderParam(GAME_TOKEN) String token,
            @Context HttpServerRequest http) {
        return games.hint(gameId(id), requester(token), ClientKey.of(identity, http));
    }

    @POST
    @Path("/{id}/resign")
    @Operation(summary = "Give up the game; it is finished and published like a game over")
    @APIResponse(responseCode = "409", description = "The game is finished already")
    public GameView resign(@PathParam("id") String id, @Parameter(description = TOKEN_DOC) @HeaderParam(GAME_TOKEN) String token) {
        return games.resign(gameId(id), requester(token));
    }

    @GET
    @Path("/{id}/replay")
    @Operation(summary = "The replay of a finished game (docs/rules.md \"Replays\"), with the start board the seed "
            + "deals as `start`, for replay viewers", description = "The replay carries the seed: it is served once "
            + "the seed may be shown: for a daily game once its UTC day is over, for a match's game once the whole "
            + "match has finished. Then anyone who has the game's id may read it (no login: a shared link); before "
            + "that, its player alone.")
    @APIResponses({
            @APIResponse(responseCode = "200", description = "The replay and its start board",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ReplayView.class))),
            @APIResponse(responseCode = "403", description = "Not the game's player, and its replay is not shown yet"),
            @APIResponse(responseCode = "404", description = "There is no such game"),
            @APIResponse(responseCode = "409", description = "To its player: the game is still being played, it is a "
                    + "daily game whose day is not over, or it is a match's game and another seat of its match still "
                    + "plays"),
            @APIResponse(responseCode = "429", description = "The client has bloc.limits.replays-in-flight-per-client "
                    + "replays being built on this replica already, or asked for more than "
                    + "bloc.limits.replays-per-minute-per-client (30) a minute; with Retry-After") })
    public Response replay(@PathParam("id") String id, @Parameter(description = TOKEN_DOC) @HeaderParam(GAME_TOKEN) String token,
            @Context HttpServerRequest http) {
        // written to bytes while the replay counts as in flight: the answer's one copy, made from the records
        byte[] json = games.replay(gameId(id), requester(token), ClientKey.of(identity, http), replay -> {
            try {
                return mapper.writeValueAsBytes(ReplayView.of(replay));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        });
        return Response.ok(json, MediaType.APPLICATION_JSON_TYPE).build();
    }

    /** A request's level, or 400 in the engine's words. */
    static Level level(String id) {
        try {
            return Level.parse(id);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("level: " + e.getMessage());
        }
    }

    private Requester requester(String token) {
        if (identity.isAnonymous()) {
            return new Requester(null, null, token);
        }
        Caller caller = Caller.of(identity);
        players.seen(caller);
        return new Requester(caller.subject(), caller.name(), token);
    }

    private static UUID gameId(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException("There is no game '" + id + "': game ids are UUIDs.");
        }
    }
}
