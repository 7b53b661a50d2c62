package com.bloceclat.leaderboard.rest;

import java.time.Clock;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import com.bloceclat.common.rest.ServiceInfo;
import com.bloceclat.common.security.Caller;
import com.bloceclat.engine.Level;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.GameRecord;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.leaderboard.service.Period;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Leaderboards per level: public tables of records and a player's standing; the caller's own standing and games.
 * A leaderboard lists records (games), best score first, the earlier game first on equal scores; a player may
 * appear more than once.
 */
@Path("/api/leaderboards")
@Produces(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "429", description = "Past the client's rate of reads of the boards (a player by token, "
        + "anyone else by address: bloc.leaderboard.reads-per-second-per-client, 10, in bursts of 50; ReadRate); "
        + "Retry-After says when to ask again")
public class LeaderboardResource {

    /** One record on a leaderboard; {@code rank} counts from 1 within the level and period. */
    public record Entry(long rank, UUID gameId, String playerId, String player, int score, int rounds,
            OffsetDateTime finishedAt) {
    }

    /** One page of a leaderboard; {@code more} says whether a next page has entries. */
    public record Board(String level, String period, int page, int size, boolean more, List<Entry> entries) {
    }

    /** A player's best record of a level in a period, its rank, and how many records they hold there. */
    public record Standing(String level, String period, String playerId, String player, Entry best,
            @Schema(description = "The player's standing records there, counted up to 10,000") long records) {
    }

    /** The calling player, with their all-time standing in each level where they hold a record. */
    public record MyRecords(String subject, String name, List<String> roles, List<Standing> records) {
    }

    /** One of the caller's games and what became of it. */
    public record MyGame(UUID gameId, String level, String mode, Outcome outcome, String reason, int score,
            int rounds, OffsetDateTime finishedAt, boolean struck) {
    }

    public record MyGames(int page, int size, boolean more, List<MyGame> games) {
    }

    /**
     * One page of a day's daily-challenge board of a level: each player's first daily game of that UTC day, by when
     * it was started, once finished (games started after it are practice), best first. No seed nor replay: the day's seed is secret until the day is over.
     */
    public record DailyBoard(String level, LocalDate day, int page, int size, boolean more, List<Entry> entries) {
    }

    /** The caller's daily record of a day and level and its rank on that board; {@code best} null when none. */
    public record DailyStanding(String level, LocalDate day, String playerId, String player, Entry best) {
    }

    @Inject
    SecurityIdentity identity;

    @Inject
    ServiceInfo info;

    @Inject
    LeaderboardConfig config;

    Clock clock = Clock.systemUTC();

    @GET
    @Path("/info")
    @Operation(summary = "Public: which service and version answers")
    public ServiceInfo info() {
        return info;
    }

    @GET
    @Path("/{level}")
    @Operation(summary = "Public: a page of a level's leaderboard, best first")
    @APIResponse(responseCode = "200", description = "The page (possibly empty)")
    @APIResponse(responseCode = "400", description = "Unknown level or period, or bad paging")
    public Board top(
            @Parameter(description = "EASY, MEDIUM, HARD, EXPERT or DIABOLICAL (any case)") @PathParam("level") String level,
            @Parameter(description = "all (default), today or week (UTC; the week starts on Monday)") @QueryParam("period") String period,
            @Parameter(description = "Page number from 0 (default 0)") @QueryParam("page") String page,
            @Parameter(description = "Entries per page, 1 to 100 (default 20)") @QueryParam("size") String size) {
        Level lvl = Params.level(level);
        Period p = Params.period(period);
        Params.Paging paging = Params.paging(page, size, config);
        List<GameRecord> rows = GameRecord.topOf(lvl.name(), p, p.start(clock), paging.offset(), paging.limit());
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < Math.min(rows.size(), paging.size()); i++) {
            entries.add(entry(paging.offset() + i + 1, rows.get(i)));
        }
        return new Board(lvl.name(), p.label(), paging.page(), paging.size(), paging.more(rows.size()), entries);
    }

    @GET
    @Path("/{level}/daily")
    @Operation(summary = "Public: a page of a day's daily-challenge board of a level, best first",
            description = "Each player's first daily game of that UTC day and level, by when it was started, counts "
                    + "once it has finished; games started after it are practice and are not listed (a game started "
                    + "first and finished last still counts). Entries carry no seed or replay.")
    @APIResponse(responseCode = "200", description = "The page (possibly empty)")
    @APIResponse(responseCode = "400", description = "Unknown level, a day not written YYYY-MM-DD or after today "
            + "(UTC), or bad paging")
    public DailyBoard daily(
            @Parameter(description = "EASY, MEDIUM, HARD, EXPERT or DIABOLICAL (any case)") @PathParam("level") String level,
            @Parameter(description = "The UTC day, YYYY-MM-DD (default today, UTC)") @QueryParam("day") String day,
            @Parameter(description = "Page number from 0 (default 0)") @QueryParam("page") String page,
            @Parameter(description = "Entries per page, 1 to 100 (default 20)") @QueryParam("size") String size) {
        Level lvl = Params.level(level);
        LocalDate d = Params.day(day, clock);
        Params.Paging paging = Params.paging(page, size, config);
        List<GameRecord> rows = GameRecord.dailyOf(lvl.name(), d, paging.offset(), paging.limit());
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < Math.min(rows.size(), paging.size()); i++) {
            entries.add(entry(paging.offset() + i + 1, rows.get(i)));
        }
        return new DailyBoard(lvl.name(), d, paging.page(), paging.size(), paging.more(rows.size()), entries);
    }

    @GET
    @Path("/{level}/daily/me")
    @Authenticated
    @Operation(summary = "The caller's daily record of a day and level and its rank (best null when none yet)")
    @APIResponse(responseCode = "200", description = "The caller's daily standing")
    @APIResponse(responseCode = "400", description = "Unknown level, or a day not written YYYY-MM-DD or after today")
    @APIResponse(responseCode = "401", description = "No valid token")
    public DailyStanding myDaily(@PathParam("level") String level,
            @Parameter(description = "The UTC day, YYYY-MM-DD (default today, UTC)") @QueryParam("day") String day) {
        Caller caller = Caller.of(identity);
        Level lvl = Params.level(level);
        LocalDate d = Params.day(day, clock);
        GameRecord record = GameRecord.dailyOf(caller.subject(), lvl.name(), d);
        return new DailyStanding(lvl.name(), d, caller.subject(), record == null ? caller.name() : record.playerName,
                record == null ? null : entry(record.dailyRank(), record));
    }

    @GET
    @Path("/{level}/players/{playerId}")
    @Operation(summary = "Public: a player's best record of a level in a period, and its rank")
    @APIResponse(responseCode = "200", description = "The player's standing")
    @APIResponse(responseCode = "400", description = "Unknown level or period")
    @APIResponse(responseCode = "404", description = "The player holds no record there")
    public Standing player(@PathParam("level") String level, @PathParam("playerId") String playerId,
            @Parameter(description = "all (default), today or week") @QueryParam("period") String period) {
        Level lvl = Params.level(level);
        Period p = Params.period(period);
        Standing standing = standing(lvl, p, Params.playerId(playerId), null);
        if (standing.best() == null) {
            throw new NotFoundException("Player '" + playerId + "' holds no " + lvl + " record (" + p.label() + ")");
        }
        return standing;
    }

    @GET
    @Path("/{level}/me")
    @Authenticated
    @Operation(summary = "The caller's best record of a level in a period, and its rank (best null when none)")
    @APIResponse(responseCode = "200", description = "The caller's standing")
    @APIResponse(responseCode = "400", description = "Unknown level or period")
    @APIResponse(responseCode = "401", description = "No valid token")
    public Standing myStanding(@PathParam("level") String level,
            @Parameter(description = "all (default), today or week") @QueryParam("period") String period) {
        Caller caller = Caller.of(identity);
        return standing(Params.level(level), Params.period(period), caller.subject(), caller.name());
    }

    @GET
    @Path("/me")
    @Authenticated
    @Operation(summary = "The calling player and their all-time standing in each level where they hold a record")
    @APIResponse(responseCode = "401", description = "No valid token")
    public MyRecords me() {
        Caller caller = Caller.of(identity);
        List<Standing> records = new ArrayList<>();
        for (Level level : Level.values()) {
            // a best per level, one row each: the levels' distinct names read every record the player holds
            Standing standing = standing(level, Period.ALL, caller.subject(), caller.name());
            if (standing.best() != null) {
                records.add(standing);
            }
        }
        return new MyRecords(caller.subject(), caller.name(), caller.roles(), records);
    }

    @GET
    @Path("/me/games")
    @Authenticated
    @Operation(summary = "The caller's finished games, newest first, with what became of each")
    @APIResponse(responseCode = "400", description = "Bad paging")
    @APIResponse(responseCode = "401", description = "No valid token")
    public MyGames myGames(@Parameter(description = "Page number from 0") @QueryParam("page") String page,
            @Parameter(description = "Games per page, 1 to 100 (default 20)") @QueryParam("size") String size) {
        Caller caller = Caller.of(identity);
        Params.Paging paging = Params.paging(page, size, config);
        List<GameAudit.PlayerGame> rows = GameAudit.ofPlayer(caller.subject(), paging.offset(), paging.limit());
        // a rejected daily game's reason can name the day's pieces: withheld from its player too until the day is over
        List<MyGame> games = rows.stream().limit(paging.size()).map(a -> new MyGame(a.gameId(), a.level(), a.mode(),
                a.outcome(), a.outcome() == Outcome.REJECTED && GameAudit.dayNotOver(a.day(), a.seedSource()) != null
                        ? AdminAuditResource.WITHHELD : a.reason(), a.score(), a.rounds(), a.finishedAt(), a.struck()))
                .toList();
        return new MyGames(paging.page(), paging.size(), paging.more(rows.size()), games);
    }

    private Standing standing(Level level, Period period, String subject, String name) {
        LocalDate start = period.start(clock); // read once: the best, its count and its rank in the same period
        GameRecord best = GameRecord.bestOf(subject, level.name(), period, start);
        if (best == null) {
            return new Standing(level.name(), period.label(), subject, name, null, 0);
        }
        return new Standing(level.name(), period.label(), subject, best.playerName,
                entry(best.rank(period, start), best), GameRecord.countOf(subject, level.name(), period, start));
    }

    private static Entry entry(long rank, GameRecord r) {
        return new Entry(rank, r.gameId, r.playerSubject, r.playerName, r.score, r.rounds, r.finishedAt);
    }
}
