package com.bloceclat.leaderboard.rest;

import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.security.Caller;
import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.PieceStream;
import com.bloceclat.leaderboard.AuditAction;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.GameRecord;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.RefusedMessage;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.leaderboard.service.AuditService;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;

/** Admins' view of every game received: list, inspect with replay and trace, re-validate, strike a record. */
@Path("/api/leaderboards/admin/audits")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AdminAuditResource {

    public record Player(String subject, String name) {
    }

    public record Summary(UUID gameId, Outcome outcome, String reason, String level, String mode, Player player,
            int score, Integer claimedScore, int rounds, boolean assisted, boolean gameOver,
            OffsetDateTime finishedAt, OffsetDateTime processedAt, boolean struck,
            @Schema(description = "Flagged by the cheat detector: at least min-rounds compared rounds, of which a "
                    + "share of at least the threshold were played exactly as the full-strength AI") boolean suspicious,
            @Schema(description = "Rounds played exactly as the full-strength AI / rounds compared; absent until "
                    + "the detector has measured the game (it measures records of at least min-rounds rounds)")
            Float aiAgreement,
            @Schema(description = "Rounds completed without a hint or an undo, compared with the AI; absent until "
                    + "measured") Integer comparedRounds,
            @Schema(description = "When the cheat detector measured the game; absent until then")
            OffsetDateTime suspicionCheckedAt,
            @Schema(description = "SERVER, DAILY or CHOSEN, as game-service signed it; absent for games received "
                    + "before schema 2") String seedSource,
            @Schema(description = "The UTC day of a daily-challenge game") LocalDate day,
            @Schema(description = "A daily game only: true when game-service signed it as practice (its player had "
                    + "started another daily game of that day and level before it); such a game never counts")
            Boolean practice,
            @Schema(description = "When the game was created; absent before schema 2") OffsetDateTime createdAt) {
    }

    /** A game-finished message whose signature did not hold: never judged, kept apart from the games. */
    public record Refused(long id, String topic, int partition, long offset, String key,
            @Schema(description = "Why: unsigned: …, unknown key …, bad signature …") String reason,
            @Schema(description = "The value as received (NUL written \\u0000), cut at "
                    + RefusedMessage.MAX_PAYLOAD + " characters; absent until withheldUntil for a message that "
                    + "names a daily game") String payload,
            @Schema(description = "Whether the payload was cut (the dead letter carries it all, unless it was too "
                    + "large for the broker: then only this cut is kept)") boolean truncated,
            OffsetDateTime publishedAt, OffsetDateTime refusedAt,
            @Schema(description = "For a message that names a daily game: until when its payload is withheld (the "
                    + "UTC midnight after it was refused, plus the services' allowed clock skew); absent otherwise") OffsetDateTime withheldUntil) {
    }

    /**
     * A refused message that names a daily game (its seed source, even inside a signed envelope's escaped text) may
     * carry that day's seed and pieces: withheld from admins too until the UTC midnight after it was refused, as an
     * audit withholds them until its day is over. A game's day is never after the day its message arrives by more
     * than the clocks of the two services differ ({@code bloc.leaderboard.clock-skew}: game-service a little ahead
     * starts tomorrow's daily game just before this midnight), so the refusal's date plus that skew bounds it, and a
     * forged message cannot hide itself from the admins for longer than that.
     */
    private static final java.util.regex.Pattern DAILY =
            java.util.regex.Pattern.compile("seedSource\\\\?\"\\s*:\\s*\\\\?\"DAILY");

    static OffsetDateTime withheldUntil(String payload, OffsetDateTime refusedAt, Duration skew) {
        if (payload == null || !DAILY.matcher(payload).find()) {
            return null;
        }
        return refusedAt.plus(skew).withOffsetSameInstant(ZoneOffset.UTC).toLocalDate().plusDays(1).atStartOfDay()
                .atOffset(ZoneOffset.UTC);
    }

    public record RefusedPage(int page, int size, boolean more, List<Refused> refused) {
    }

    public record Audits(int page, int size, boolean more, List<Summary> audits) {
    }

    public record Strike(OffsetDateTime at, String by, String reason) {
    }

    public record Action(String action, String actor, OffsetDateTime at, String detail) {
    }

    /** One game in full: the replay as received, the validator's trace, the record's strike, the admins' actions. */
    public record Detail(Summary summary,
            @Schema(description = "Absent, like replay and start (and the trace empty), for a daily game until its "
                    + "day is over (withheldUntil): the seed deals that day's pieces to every player") Long seed,
            int validEvents, JsonNode replay,
            @Schema(description = "The start board the seed deals on the game's level, for the replay viewer; absent "
                    + "when the replay names no seed or level") List<String> start,
            List<String> trace, Strike strike, List<Action> actions,
            @Schema(description = "For a daily game whose day is not over (UTC): when its seed, replay, start and "
                    + "trace are shown; absent otherwise") OffsetDateTime withheldUntil) {
    }

    /** PostgreSQL's text refuses a zero byte, and no reason needs a control character but a line break or a tab. */
    public record StrikeRequest(@NotBlank @Size(max = 2000)
            @Pattern(regexp = "[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]*",
                    message = "must have no control character but line breaks and tabs") String reason) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Inject
    SecurityIdentity identity;

    @Inject
    AuditService audits;

    @Inject
    LeaderboardConfig config;

    @GET
    @RolesAllowed("admin")
    @Operation(summary = "Games received, newest first, filtered by outcome, suspicion, level and when they "
            + "finished")
    @APIResponse(responseCode = "400", description = "Unknown outcome or level, bad suspicious flag, date or paging")
    public Audits list(
            @Parameter(description = "RECORD, VALID_NOT_ELIGIBLE, REJECTED or DUPLICATE") @QueryParam("outcome") String outcome,
            @Parameter(description = "true: only games the cheat detector flagged; false: only the others")
            @QueryParam("suspicious") String suspicious,
            @Parameter(description = "A level") @QueryParam("level") String level,
            @Parameter(description = "Finished at or after (2026-11-29 or 2026-11-29T10:00:00Z)") @QueryParam("from") String from,
            @Parameter(description = "Finished before") @QueryParam("to") String to,
            @Parameter(description = "Page number from 0") @QueryParam("page") String page,
            @Parameter(description = "Audits per page, 1 to 100 (default 20)") @QueryParam("size") String size) {
        Outcome o = Params.outcome(outcome);
        Boolean flagged = Params.flag("suspicious", suspicious);
        String lvl = level == null || level.isEmpty() ? null : Params.level(level).name();
        OffsetDateTime since = Params.time("from", from);
        OffsetDateTime until = Params.time("to", to);
        Params.Paging paging = Params.paging(page, size, config);
        List<GameAudit.Listed> rows = GameAudit.search(o, flagged, lvl, since, until, paging.offset(),
                paging.limit());
        List<Summary> list = rows.stream().limit(paging.size()).map(AdminAuditResource::summary).toList();
        return new Audits(paging.page(), paging.size(), paging.more(rows.size()), list);
    }

    @GET
    @Path("/refused")
    @RolesAllowed("admin")
    @Operation(summary = "game-finished messages refused for their size or signature (too large, unsigned, unknown "
            + "key, bad signature), newest first; they were never judged and are not games. Kept for "
            + "bloc.leaderboard.refused.retention (30 days), at most bloc.leaderboard.refused.max-rows (100,000)")
    @APIResponse(responseCode = "400", description = "Bad paging")
    public RefusedPage refused(@Parameter(description = "Page number from 0") @QueryParam("page") String page,
            @Parameter(description = "Messages per page, 1 to 100 (default 20)") @QueryParam("size") String size) {
        Params.Paging paging = Params.paging(page, size, config);
        List<RefusedMessage> rows = RefusedMessage.page(paging.offset(), paging.limit());
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Refused> list = rows.stream().limit(paging.size()).map(r -> {
            OffsetDateTime until = withheldUntil(r.payload, r.refusedAt, config.clockSkew());
            boolean withheld = until != null && now.isBefore(until);
            return new Refused(r.id, r.topic, r.kafkaPartition, r.kafkaOffset, r.messageKey, r.reason,
                    withheld ? null : r.payload, r.truncated, r.publishedAt, r.refusedAt, withheld ? until : null);
        }).toList();
        return new RefusedPage(paging.page(), paging.size(), paging.more(rows.size()), list);
    }

    @GET
    @Path("/{gameId}")
    @RolesAllowed("admin")
    @Operation(summary = "One game: its verdict, replay as received, the validator's trace and the audit trail")
    @APIResponse(responseCode = "400", description = "The id is not a UUID")
    @APIResponse(responseCode = "404", description = "No such game received")
    public Detail get(@PathParam("gameId") String gameId) {
        UUID id = Params.gameId(gameId);
        GameAudit audit = GameAudit.findById(id);
        if (audit == null) {
            throw new NotFoundException("No game " + id + " has been received");
        }
        return detail(audit);
    }

    @POST
    @Path("/{gameId}/revalidate")
    @RolesAllowed("admin")
    @Operation(summary = "Validate the game's replay again with the engine as it is now; a record that no longer "
            + "holds is struck, a game that now earns a record gets one; the cheat detector measures it again")
    @APIResponse(responseCode = "200", description = "The game after re-validation")
    @APIResponse(responseCode = "404", description = "No such game received")
    @APIResponse(responseCode = "409", description = "The replay is of another rules version than this replica's "
            + "engine plays: the game is left as it was judged, its record (if any) on the boards",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Detail revalidate(@PathParam("gameId") String gameId) {
        return detail(audits.revalidate(Params.gameId(gameId), Caller.of(identity).name()));
    }

    @POST
    @Path("/{gameId}/strike")
    @RolesAllowed("admin")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Take a record off every leaderboard, with a reason kept in the audit trail")
    @APIResponse(responseCode = "200", description = "The game with its record struck")
    @APIResponse(responseCode = "400", description = "No reason given")
    @APIResponse(responseCode = "404", description = "No such game received")
    @APIResponse(responseCode = "409", description = "The game is not a record, or an admin already struck its "
            + "record (a strike a re-validation made is replaced by the admin's)")
    public Detail strike(@PathParam("gameId") String gameId, @Valid @NotNull StrikeRequest request) {
        String reason = request.reason().strip();
        // @NotBlank trims only up to U+0020: a reason of Unicode spaces or invisible characters (U+200B) says nothing
        if (reason.codePoints().noneMatch(Character::isLetterOrDigit)) {
            throw new BadRequestException("'reason' must say why the record is struck: it has no letter or digit");
        }
        if (reason.startsWith(AuditService.REVALIDATION_STRIKE)) {
            // it marks the strikes a re-validation makes, which a later one lifts when the record holds again
            throw new BadRequestException("'reason' may not start with '" + AuditService.REVALIDATION_STRIKE
                    + "': it marks the strikes re-validations make");
        }
        return detail(audits.strike(Params.gameId(gameId), Caller.of(identity).name(), reason));
    }

    @ServerExceptionMapper
    public Response conflict(AuditService.ConflictException e) {
        return Problem.of(Response.Status.CONFLICT, e.getMessage()).toResponse().build();
    }

    /**
     * The audit of a game. A daily game's seed, replay, start and trace are withheld until its day is over: they deal
     * that day's pieces, and an admin who is also a player could otherwise play the day's challenge knowing them. So
     * are the validator's words about it (a rejection's reason, a re-validation's verdict and the strike it made):
     * "round 3 pieces differ from the seed's … the seed deals [O9, …]" names them too.
     */
    private static Detail detail(GameAudit audit) {
        OffsetDateTime withheld = withheldUntil(audit);
        GameRecord record = GameRecord.findById(audit.gameId);
        Strike strike = record != null && record.struck() ? new Strike(record.struckAt, record.struckBy,
                withheld != null && record.strikeReason.startsWith(AuditService.REVALIDATION_STRIKE)
                        ? AuditService.REVALIDATION_STRIKE + " " + WITHHELD : record.strikeReason) : null;
        List<Action> actions = AuditAction.of(audit.gameId).stream()
                .map(a -> new Action(a.kind.name(), a.actor, a.at,
                        withheld != null && a.kind == AuditAction.Kind.REVALIDATE ? WITHHELD : a.detail))
                .toList();
        if (withheld != null) {
            return new Detail(summary(audit, record), null, audit.validEvents, null, null, List.of(), strike, actions,
                    withheld);
        }
        JsonNode replay;
        try {
            replay = MAPPER.readTree(audit.replay);
        } catch (JsonProcessingException e) {
            replay = TextNode.valueOf(audit.replay);
        }
        return new Detail(summary(audit, record), audit.seed, audit.validEvents, replay, startBoard(audit),
                audit.traceLines(), strike, actions, null);
    }

    /** What stands for the validator's words about a daily game whose day is not over. */
    static final String WITHHELD = "(withheld until the game's day is over: the validator's words can name its pieces)";

    /** For a daily game whose day (UTC) is not over: the midnight that ends it; null otherwise. */
    private static OffsetDateTime withheldUntil(GameAudit audit) {
        return withheldUntil(audit.day, audit.seedSource);
    }

    private static OffsetDateTime withheldUntil(LocalDate day, String seedSource) {
        return GameAudit.dayNotOver(day, seedSource);
    }

    private static List<String> startBoard(GameAudit audit) {
        if (audit.seed == null || audit.level == null) {
            return null;
        }
        try {
            return List.of(Board.rows(PieceStream.startBoard(audit.seed, Level.parse(audit.level))));
        } catch (IllegalArgumentException e) {
            return null; // an unknown level: the verdict says so
        }
    }

    private static Summary summary(GameAudit a, GameRecord record) {
        return summary(GameAudit.Listed.of(a, record != null && record.struck()));
    }

    private static Summary summary(GameAudit.Listed a) {
        String reason = a.outcome() == Outcome.REJECTED && withheldUntil(a.day(), a.seedSource()) != null ? WITHHELD
                : a.reason();
        return new Summary(a.gameId(), a.outcome(), reason, a.level(), a.mode(),
                a.playerSubject() == null ? null : new Player(a.playerSubject(), a.playerName()), a.score(),
                a.claimedScore(), a.rounds(), a.assisted(), a.gameOver(), a.finishedAt(), a.processedAt(), a.struck(),
                a.suspicious(), a.aiAgreement(), a.comparedRounds(), a.suspicionCheckedAt(), a.seedSource(), a.day(),
                "DAILY".equals(a.seedSource()) ? a.practice() : null, a.createdAt());
    }
}
