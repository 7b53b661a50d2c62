package com.bloceclat.game.service;

import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEntity.SeedSource;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.DailyLevel;
import com.bloceclat.game.service.Views.DailyView;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.HintView;
import com.bloceclat.game.service.Views.MoveView;
import com.bloceclat.game.service.Views.Suggestion;
import com.bloceclat.solver.client.SolverClient;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Games as the API and the background loops see them: each call one transaction around one command handler
 * ({@link Creation}, {@link Moves}, {@link Undos}, {@link Hints}, {@link Resignations}, {@link AiTurns}), which change
 * a game through its log ({@link GameLog}, the core: lock, load, apply, append, publish). docs/game-service.md opens
 * with the map.
 */
@ApplicationScoped
public class GameService {

    @Inject
    GameLog log;

    @Inject
    GameViews views;

    @Inject
    Creation creation;

    @Inject
    Moves moves;

    @Inject
    Undos undos;

    @Inject
    Hints hints;

    @Inject
    GameConfig.Limits limits;

    @Inject
    Resignations resignations;

    @Inject
    AiTurns ai;

    @Inject
    SolverClient solver;

    @Inject
    DailyChallenge daily;

    /**
     * Seed choice at creation: the server's, a given one, or the day's; {@code practice}: a daily game asked for as
     * practice, made even while the player's counting one of the level is in play ({@link Creation#solo}).
     */
    public record NewGame(Level level, Long seed, boolean daily, boolean practice) {

        public NewGame(Level level, Long seed, boolean daily) {
            this(level, seed, daily, false);
        }
    }

    /** A new solo game ({@link Creation#solo}). */
    @Transactional
    public GameView create(NewGame request, Requester requester) {
        return creation.solo(request, requester);
    }

    @Transactional
    public GameView state(UUID id, Requester requester) {
        GameEntity g = log.read(id, requester);
        if (g.mode == GameEntity.Mode.ONLINE_RACE && !g.finished()) {
            GameEntity.seen(List.of(g.id));
        }
        return views.of(g);
    }

    @Transactional
    public MoveView move(UUID id, Requester requester, int moveNumber, int slot, int row, int col) {
        return moves.move(id, requester, moveNumber, slot, row, col);
    }

    /** Takes back move {@code moveNumber}, which must be the last placement standing in the current round. */
    @Transactional
    public GameView undo(UUID id, Requester requester, int moveNumber) {
        return undos.undo(id, requester, moveNumber);
    }

    /**
     * Asks solver-service for the best way to play the rest of the round; marks the game assisted. No transaction is
     * open while the solver works ({@link Hints}).
     */
    public HintView hint(UUID id, Requester requester, String client) {
        Hints.Asked asked = QuarkusTransaction.requiringNew().call(() -> hints.ask(id, requester));
        List<Suggestion> suggestions = hintsInFlight.run(client, limits.hintsInFlightPerClient(),
                () -> SolverQuestions.askHint(solver, asked.question()));
        return QuarkusTransaction.requiringNew().call(() -> hints.record(id, requester, asked, suggestions));
    }

    /** Hints being worked out on this replica, per client ({@code bloc.limits.hints-in-flight-per-client}). */
    private InFlightPerClient hintsInFlight;

    /** Replays being built and written on this replica, per client ({@code bloc.limits.replays-in-flight-per-client}). */
    private InFlightPerClient replaysInFlight;

    /** Replays asked for on this replica, per client and minute ({@code bloc.limits.replays-per-minute-per-client}). */
    private RatePerClient replayRate;

    @Inject
    MeterRegistry metrics;

    /** The bounds' refusals are counted in {@code game_in_flight_refused_total{kind}} (hints, replays). */
    @PostConstruct
    void inFlightBounds() {
        hintsInFlight = new InFlightPerClient("hints", "being worked out",
                metrics.counter("game.in.flight.refused", "kind", "hints"));
        replaysInFlight = new InFlightPerClient("replays", "being built",
                metrics.counter("game.in.flight.refused", "kind", "replays"));
        replayRate = new RatePerClient("replays", limits.replaysPerMinutePerClient(),
                metrics.counter("game.rate.refused", "kind", "replays"));
    }

    @Transactional
    public GameView resign(UUID id, Requester requester) {
        return resignations.resign(id, requester);
    }

    /** Online race: resigns the game for its player if they are still gone ({@link Resignations#resignIfGone}). */
    @Transactional
    public boolean resignIfGone(UUID id, Duration timeout) {
        return resignations.resignIfGone(id, timeout);
    }

    /** Versus AI and online races: resigns the game if it is still idle ({@link Resignations#resignIfIdle}). */
    @Transactional
    public boolean resignIfIdle(UUID id, Duration openFor) {
        return resignations.resignIfIdle(id, openFor);
    }

    /**
     * The replay of a finished game (RULES.md "Replay"), handed to {@code write} (which writes the answer) while it is
     * one of the client's replays in flight: a long game's replay is megabytes, built and written whole, so a client
     * asking for it many times at once must not have that many built at once. Once written, the bytes wait in the
     * connection until the client reads them: that is not bounded here (docs/game-service.md "Limits"). It carries the seed, so it is served only when
     * the seed may be shown: a daily game's once its day is over. Then it is served to anyone who has the game's id (a
     * player shares the link), before that to its player alone. A client may ask for
     * {@code bloc.limits.replays-per-minute-per-client} a minute.
     */
    public <T> T replay(UUID id, Requester requester, String client, Function<Replay, T> write) {
        // anyone may read a shown replay, a long one's events read from the database when this replica lacks them:
        // a client may not cycle through the leaderboards' longest games at the in-flight bound's pace
        replayRate.take(client);
        return replaysInFlight.run(client, limits.replaysInFlightPerClient(),
                () -> write.apply(QuarkusTransaction.requiringNew().call(() -> finishedReplay(id, requester))));
    }

    private Replay finishedReplay(UUID id, Requester requester) {
        GameEntity g = log.readReplay(id, requester, shown -> shown.finished() && views.seedShown(shown));
        if (!g.finished()) {
            throw Refusals.conflict("The replay is served once the game is finished: it carries the seed, which tells "
                    + "the pieces still to come.");
        }
        if (g.matchId != null && !views.matchSeedShown(g)) {
            throw Refusals.conflict("The replay of a match's game is served once every seat of the match has ended: it "
                    + "carries the match's seed, which tells the pieces still to come of the seat still playing.");
        }
        if (!views.seedShown(g) && g.seedSource == SeedSource.DAILY) {
            throw Refusals.conflict("The replay of a daily game is served once its day is over, at "
                    + DailyChallenge.end(g.dailyDay) + ": it carries the seed, which is everyone's seed on "
                    + g.dailyDay + ".");
        }
        if (!views.seedShown(g)) {
            throw Refusals.conflict("The replay is served once the game's seed may be shown: it carries the seed, "
                    + "which tells the pieces still to come.");
        }
        return log.current(g).game.replay();
    }

    /**
     * What the AI asks the solver, and the state it was asked about.
     *
     * @param waits the AI's next placement would complete its round while the person has not been dealt the next
     *              one ({@link MatchVisibility#aiMayPlay}): nothing to ask, it waits at the round boundary
     */
    public record AiQuestion(UUID gameId, int eventCount, SolveRequest request, List<Integer> slots, boolean waits) {

        static AiQuestion waiting(UUID gameId, int eventCount) {
            return new AiQuestion(gameId, eventCount, null, List.of(), true);
        }
    }

    /** The question for the AI's next placement ({@link AiTurns#question}). */
    @Transactional
    public AiQuestion aiQuestion(UUID gameId) {
        return ai.question(gameId);
    }

    /** Plays an AI placement of the solver's plan ({@link AiTurns#play}): its time, or null when not played. */
    @Transactional
    public OffsetDateTime aiPlay(AiQuestion question, Suggestion placement) {
        return ai.play(question, placement);
    }

    /** Today's daily challenge, and for a logged-in player the levels of which they started and finished one. */
    @Transactional
    public DailyView daily(Requester requester) {
        LocalDate today = daily.today();
        Map<Level, Boolean> played = requester.guest() ? Map.of()
                : GameEntity.dailyLevels(requester.subject(), today);
        List<DailyLevel> levels = new ArrayList<>();
        for (Level level : Level.values()) {
            levels.add(requester.guest() ? new DailyLevel(level.name(), null, null)
                    : new DailyLevel(level.name(), played.containsKey(level), played.getOrDefault(level, false)));
        }
        return new DailyView(today, DailyChallenge.end(today), levels);
    }

    /** Whether a game's seed may be shown now ({@link GameViews#seedShown}). */
    public boolean seedShown(GameEntity g) {
        return views.seedShown(g);
    }
}
