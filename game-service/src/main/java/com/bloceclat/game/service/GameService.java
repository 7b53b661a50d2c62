package com.bloceclat.game.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEntity.SeedSource;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.solver.client.SolverBusyException;
import com.bloceclat.solver.client.SolverClient;
import com.bloceclat.solver.client.SolverRequestException;
import com.bloceclat.solver.client.SolverUnavailableException;
import com.bloceclat.game.service.Views.DailyLevel;
import com.bloceclat.game.service.Views.DailyView;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.Happened;
import com.bloceclat.game.service.Views.HintView;
import com.bloceclat.game.service.Views.MoveView;
import com.bloceclat.game.service.Views.PieceView;
import com.bloceclat.game.service.Views.Suggestion;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs solo games: every request rebuilds the game from its stored events on the engine, applies the new event,
 * stores it with a summary of the new state and, in the same transaction, the messages announcing it (outbox).
 */
@ApplicationScoped
public class GameService {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    GameMessages messages;

    @Inject
    SolverClient solver;

    @Inject
    ObjectMapper json;

    @Inject
    MatchService referee;

    @Inject
    GameCache cache;

    @Inject
    DailyChallenge daily;

    @Inject
    GameConfig.Limits limits;

    /** Seed choice at creation: the server's, a given one, or the day's. */
    public record NewGame(Level level, Long seed, boolean daily) {
    }

    /**
     * A new solo game on the server's seed (a CSPRNG's, {@link SeedSource#SERVER}), the one given
     * ({@link SeedSource#CHOSEN}) or today's daily seed ({@link SeedSource#DAILY}, also for guests).
     */
    @Transactional
    public GameView create(NewGame request, Requester requester) {
        if (request.seed() != null && request.daily()) {
            throw new BadRequestException("Choose either a seed or the daily game, not both.");
        }
        long seed;
        SeedSource source;
        LocalDate day = null;
        if (request.daily()) {
            day = daily.today();
            seed = daily.seed(day, request.level());
            source = SeedSource.DAILY;
        } else if (request.seed() != null) {
            seed = request.seed();
            source = SeedSource.CHOSEN;
        } else {
            seed = RANDOM.nextLong();
            source = SeedSource.SERVER;
        }
        String token = requester.guest() ? newGameToken() : null;
        GameEntity g = newGame(GameEntity.Mode.SOLO, request.level(), seed, source, day, requester, token, null, null);
        Rebuilt r = rebuild(g, List.of());
        cache.putAfterCommit(g.id, g.eventCount, r);
        return view(g, r).withToken(token);
    }

    /** A random seed for a new match. */
    static long randomSeed() {
        return RANDOM.nextLong();
    }

    /** A new guest game token: 32 random bytes, base64url. */
    static String newGameToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * A match's game: {@link #newGame(GameEntity.Mode, Level, long, SeedSource, LocalDate, Requester, String, UUID,
     * Integer)} on a seed that is public ({@link SeedSource#CHOSEN}) or the server's ({@link SeedSource#SERVER}, the
     * match's {@link #randomSeed()}).
     */
    GameEntity newGame(GameEntity.Mode mode, Level level, long seed, boolean seedPublic, Requester owner,
            String token, UUID matchId, Integer seat) {
        return newGame(mode, level, seed, seedPublic ? SeedSource.CHOSEN : SeedSource.SERVER, null, owner, token,
                matchId, seat);
    }

    /**
     * Stores a new game and announces it. {@code owner} null means the game is played by game-service (the AI);
     * otherwise a guest owner needs {@code token}. {@code day} is the UTC day of a {@link SeedSource#DAILY} seed.
     */
    GameEntity newGame(GameEntity.Mode mode, Level level, long seed, SeedSource source, LocalDate day,
            Requester owner, String token, UUID matchId, Integer seat) {
        if ((source == SeedSource.DAILY) != (day != null)) {
            throw new IllegalArgumentException("a daily seed has its day, no other has one");
        }
        GameEntity g = new GameEntity();
        g.id = UUID.randomUUID();
        g.mode = mode;
        g.level = level.name();
        g.seed = seed;
        g.seedSource = source;
        g.dailyDay = day;
        if (owner != null && owner.guest()) {
            g.guestTokenHash = sha256(token);
        } else if (owner != null) {
            g.ownerSubject = owner.subject();
            g.ownerName = owner.name();
        }
        g.matchId = matchId;
        g.seat = seat;
        g.status = GameEntity.Status.PLAYING;
        g.createdAt = now();
        g.updatedAt = g.createdAt;
        Game game = new Game(g.seed, level);
        summarize(g, game);
        g.persist();
        messages.created(g, game);
        return g;
    }

    @Transactional
    public GameView state(UUID id, Requester requester) {
        GameEntity g = owned(GameEntity.findById(id), id, requester);
        if (g.mode == GameEntity.Mode.ONLINE_RACE && !g.finished()) {
            GameEntity.seen(List.of(g.id));
        }
        Rebuilt r = current(g);
        return view(g, r);
    }

    @Transactional
    public MoveView move(UUID id, Requester requester, int moveNumber, int slot, int row, int col) {
        GameEntity g = owned(GameEntity.lockedById(id), id, requester);
        Rebuilt cached = cache.get(g.id, g.eventCount);
        if (cached != null && moveNumber == cached.lastMoveNumber + 1) {
            // the next move of a game this replica holds at the locked row's event count: no events to load
            refuseIfFinished(g);
            refuseIfNotYourTurn(g);
            return place(g, cached, moveNumber, slot, row, col);
        }
        List<GameEvent> events = g.events();
        for (GameEvent e : events) {
            if (e.type == GameEvent.Type.PLACE && e.moveNumber == moveNumber) {
                if (e.slot != slot || e.row != row || e.col != col) {
                    throw conflict("Move " + moveNumber + " was already played, as slot " + e.slot + " at (" + e.row
                            + "," + e.col + "); the next move number is " + (lastMoveNumber(events) + 1) + ".");
                }
                Rebuilt upTo = rebuild(g, events.subList(0, e.seq + 1));
                Game.Move m = upTo.lastMove;
                return new MoveView(true, happened(moveNumber, m), view(g, upTo));
            }
        }
        int expected = lastMoveNumber(events) + 1;
        if (moveNumber != expected) {
            throw conflict("Move number " + moveNumber + " is out of order: the next move number is " + expected
                    + ".");
        }
        refuseIfFinished(g);
        refuseIfNotYourTurn(g);
        return place(g, rebuild(g, events), moveNumber, slot, row, col);
    }

    /** Plays move {@code moveNumber} (the next one) on {@code r}, the game's current state, and stores it. */
    private MoveView place(GameEntity g, Rebuilt r, int moveNumber, int slot, int row, int col) {
        refuseIfAtCap(g, null, 0);
        Game.Move m;
        try {
            m = r.game.place(slot, row, col);
        } catch (IllegalMoveException e) {
            throw conflict("Illegal move: " + e.getMessage() + ".");
        }
        GameEvent event = append(g, GameEvent.Type.PLACE, m.round());
        event.slot = slot;
        event.row = row;
        event.col = col;
        event.moveNumber = moveNumber;
        event.persist();
        afterEvent(g, r.game, event);
        r.placed(m, moveNumber);
        cache.putAfterCommit(g.id, g.eventCount, r);
        return new MoveView(false, happened(moveNumber, m), view(g, r));
    }

    /** Takes back move {@code moveNumber}, which must be the last placement standing in the current round. */
    @Transactional
    public GameView undo(UUID id, Requester requester, int moveNumber) {
        GameEntity g = soloOnly(owned(GameEntity.lockedById(id), id, requester));
        List<GameEvent> events = g.events();
        boolean played = events.stream()
                .anyMatch(e -> e.type == GameEvent.Type.PLACE && e.moveNumber == moveNumber);
        if (!played) {
            throw conflict("There is no move " + moveNumber + " to undo.");
        }
        Rebuilt r = rebuild(g, events);
        boolean undone = events.stream()
                .anyMatch(e -> e.type == GameEvent.Type.UNDO && e.moveNumber == moveNumber);
        if (undone) {
            return view(g, r);
        }
        refuseIfFinished(g);
        refuseIfAtCap(g, GameEvent.Type.UNDO, events.stream().filter(e -> e.type == GameEvent.Type.UNDO).count());
        if (r.standingThisRound.isEmpty()) {
            throw conflict("Nothing to undo in round " + r.game.round() + ": undo never goes back across a deal.");
        }
        if (r.standingThisRound.peek() != moveNumber) {
            throw conflict("Only the last move of this round, move " + r.standingThisRound.peek()
                    + ", can be taken back.");
        }
        r.game.undo();
        r.standingThisRound.pop();
        GameEvent event = append(g, GameEvent.Type.UNDO, r.game.round());
        event.moveNumber = moveNumber;
        event.persist();
        afterEvent(g, r.game, event);
        return view(g, r);
    }

    /** Asks solver-service for the best way to play the rest of the round; marks the game assisted. */
    public HintView hint(UUID id, Requester requester) {
        record Asked(SolveRequest request, int eventCount, List<Integer> slots) {
        }
        Asked asked = QuarkusTransaction.requiringNew().call(() -> {
            GameEntity g = soloOnly(owned(GameEntity.findById(id), id, requester));
            refuseIfFinished(g);
            List<GameEvent> events = g.events();
            refuseIfAtCap(g, GameEvent.Type.HINT, events.stream().filter(e -> e.type == GameEvent.Type.HINT).count());
            Rebuilt r = rebuild(g, events);
            List<Integer> slots = new ArrayList<>();
            SolveRequest request = solverRequest(r.game, slots, Mode.HINT, SolveRequest.MAX_STRENGTH, 0);
            return new Asked(request, g.eventCount, slots);
        });
        List<Suggestion> suggestions;
        try {
            suggestions = suggestions(solver.solve(id.toString(), asked.request), asked.slots);
        } catch (RuntimeException e) {
            throw SolverFaults.of(e, "hint");
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            GameEntity g = owned(GameEntity.lockedById(id), id, requester);
            refuseIfFinished(g);
            if (g.eventCount != asked.eventCount) {
                throw conflict("The game changed while the hint was being worked out; ask again.");
            }
            Rebuilt r = rebuild(g, g.events());
            r.game.hintShown();
            GameEvent event = append(g, GameEvent.Type.HINT, r.game.round());
            event.persist();
            afterEvent(g, r.game, event);
            return new HintView(suggestions, view(g, r));
        });
    }

    /** The solver's placements as suggestions by slot. @throws SolverFaults.BadAnswer an answer that says otherwise */
    private static List<Suggestion> suggestions(Solution answer, List<Integer> slots) {
        List<Suggestion> suggestions = new ArrayList<>();
        for (Solution.Placement p : answer.best().placements()) {
            if (p.piece() >= slots.size()) {
                throw new SolverFaults.BadAnswer("a placement of piece " + p.piece() + " of " + slots.size());
            }
            suggestions.add(new Suggestion(slots.get(p.piece()), p.row(), p.col()));
        }
        return suggestions;
    }

    @Transactional
    public GameView resign(UUID id, Requester requester) {
        return resignLocked(owned(GameEntity.lockedById(id), id, requester));
    }

    /** Resigns a game whose row this transaction has locked: the one way a game is resigned. */
    private GameView resignLocked(GameEntity g) {
        refuseIfFinished(g);
        Rebuilt r = rebuild(g, g.events());
        GameEvent event = append(g, GameEvent.Type.RESIGN, r.game.round());
        event.persist();
        g.status = GameEntity.Status.RESIGNED;
        afterEvent(g, r.game, event);
        return view(g, r);
    }

    /**
     * Online race: resigns the game for its player if they are still gone, that is if the game is still playing in
     * a match still playing and its player has not been seen (see {@link GameEntity#seen}) for longer than
     * {@code timeout}, by the database's clock. Both games of the match are locked without waiting (SKIP LOCKED): a
     * game being moved, or being looked at by another replica's reaper, is left for a later pass, so two replicas
     * never both resign it and a move in progress always wins over its reaping. Answers whether it resigned.
     */
    @Transactional
    public boolean resignIfGone(UUID id, java.time.Duration timeout) {
        List<?> gone = GameEntity.getEntityManager().createNativeQuery("SELECT g.id FROM game g "
                + "JOIN match m ON m.id = g.match_id WHERE g.id = :id AND g.mode = 'ONLINE_RACE' "
                + "AND g.status = 'PLAYING' AND m.status = 'PLAYING' "
                + "AND greatest(g.last_seen_at, g.created_at) < now() - make_interval(secs => :secs) "
                + "FOR UPDATE OF g SKIP LOCKED")
                .setParameter("id", id).setParameter("secs", timeout.toMillis() / 1000.0).getResultList();
        if (gone.isEmpty()) {
            return false;
        }
        // the other seat's game may end too (won, when it is ahead): lock it first, as a move would
        List<?> other = GameEntity.getEntityManager().createNativeQuery("SELECT g.id FROM game g "
                + "JOIN game me ON me.match_id = g.match_id AND me.id = :id WHERE g.id <> :id "
                + "FOR UPDATE OF g SKIP LOCKED")
                .setParameter("id", id).getResultList();
        if (other.isEmpty()) {
            return false;
        }
        GameEntity g = GameEntity.findById(id);
        g.leftAt = now();
        resignLocked(g);
        return true;
    }

    /**
     * The replay of a finished game (RULES.md "Replay"). It carries the seed, so it is served only when the seed may be
     * shown: a daily game's once its day is over.
     */
    @Transactional
    public String replay(UUID id, Requester requester) {
        GameEntity g = owned(GameEntity.findById(id), id, requester);
        if (!g.finished()) {
            throw conflict("The replay is served once the game is finished: it carries the seed, which tells the "
                    + "pieces still to come.");
        }
        if (g.matchId != null && !matchSeedShown(g)) {
            throw conflict("The replay of a match's game is served once every seat of the match has ended: it "
                    + "carries the match's seed, which tells the pieces still to come of the seat still playing.");
        }
        if (!seedShown(g) && g.seedSource == SeedSource.DAILY) {
            throw conflict("The replay of a daily game is served once its day is over, at "
                    + DailyChallenge.end(g.dailyDay) + ": it carries the seed, which is everyone's seed on "
                    + g.dailyDay + ".");
        }
        if (!seedShown(g)) {
            throw conflict("The replay is served once the game's seed may be shown: it carries the seed, which tells "
                    + "the pieces still to come.");
        }
        return rebuild(g, g.events()).game.replay().toJson();
    }

    // --- the AI ---

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

    /**
     * The question for the AI's next placement, {@link AiQuestion#waits() waiting} when it may not play yet, or null
     * when its game or match is no longer being played.
     */
    @Transactional
    public AiQuestion aiQuestion(UUID gameId) {
        GameEntity g = GameEntity.findById(gameId);
        if (g == null || g.status != GameEntity.Status.PLAYING) {
            return null;
        }
        MatchEntity match = MatchEntity.findById(g.matchId);
        if (match.status != MatchEntity.Status.PLAYING) {
            return null;
        }
        Rebuilt r = current(g);
        GameEntity person = GameEntity.find("matchId = ?1 and seat = 0", g.matchId).firstResult();
        int piecesLeft = (int) java.util.Arrays.stream(r.game.remaining()).filter(java.util.Objects::nonNull).count();
        if (!MatchVisibility.aiMayPlay(r.game.round(), piecesLeft, current(person).game.round(), person.finished())) {
            return AiQuestion.waiting(g.id, g.eventCount);
        }
        List<Integer> slots = new ArrayList<>();
        SolveRequest request = solverRequest(r.game, slots, Mode.AI, match.strength, g.seed + g.eventCount);
        return new AiQuestion(g.id, g.eventCount, request, slots, false);
    }

    /**
     * The solver-protocol request for a game's position: its board, the pieces still to place (their slots added to
     * {@code slots}, in the order of the request's {@code pieces}), streak, miss and level.
     */
    private static SolveRequest solverRequest(Game game, List<Integer> slots, Mode mode, int strength, long seed) {
        List<Piece> pieces = new ArrayList<>(3);
        Piece[] remaining = game.remaining();
        for (int s = 0; s < remaining.length; s++) {
            if (remaining[s] != null) {
                pieces.add(remaining[s]);
                slots.add(s);
            }
        }
        return new SolveRequest(game.board(), pieces, game.streak(), game.miss(), game.level(), mode, strength, seed, 0);
    }

    /**
     * Plays the first placement of the solver's answer on the AI's game, unless the game moved on meanwhile (another
     * replica played it). Answers whether a placement was made.
     */
    @Transactional
    public boolean aiPlay(AiQuestion question, Solution answer) {
        GameEntity g = GameEntity.lockedById(question.gameId());
        if (g.eventCount != question.eventCount() || g.status != GameEntity.Status.PLAYING
                || MatchEntity.<MatchEntity>findById(g.matchId).status != MatchEntity.Status.PLAYING) {
            return false;
        }
        if (answer.best().placements().isEmpty()) {
            throw new IllegalStateException("the solver placed nothing for game " + g.id + ": " + answer);
        }
        Solution.Placement first = answer.best().placements().get(0);
        int slot = question.slots().get(first.piece());
        List<GameEvent> events = g.events();
        Rebuilt r = rebuild(g, events);
        Game.Move m = r.game.place(slot, first.row(), first.col());
        GameEvent event = append(g, GameEvent.Type.PLACE, m.round());
        event.slot = m.slot();
        event.row = m.row();
        event.col = m.col();
        event.moveNumber = lastMoveNumber(events) + 1;
        event.persist();
        afterEvent(g, r.game, event);
        return true;
    }

    /** A game's state, rebuilt (for match views). */
    GameView viewOf(GameEntity g) {
        Rebuilt r = current(g);
        return view(g, r);
    }

    /** The round in progress of a game (for match views). */
    int roundOf(GameEntity g) {
        return current(g).game.round();
    }

    /** A game's grid as it was at the end of round {@code upTo}: after its events of rounds up to that one. */
    Game gridUpTo(GameEntity g, int upTo) {
        return rebuild(g, g.events().stream().filter(e -> e.round <= upTo).toList()).game;
    }

    /**
     * A match's game as shown to the other seat while that seat is behind it ({@link MatchVisibility#gridShownUpTo}):
     * board, streak and miss as they were at the end of round {@code upTo}, no pieces; score, round, status and
     * version live.
     */
    GameView heldBackViewOf(GameEntity g, int upTo) {
        Rebuilt r = current(g);
        Game live = r.game;
        Game held = gridUpTo(g, upTo);
        return new GameView(g.id, g.mode.name(), g.level, null, g.seedSource.name(), g.dailyDay, g.status.name(),
                List.of(Board.rows(held.board())),
                live.score(), held.streak(), held.miss(), live.round(), null, live.assisted(), live.gameOver(),
                r.lastMoveNumber + 1, null, g.eventCount, g.createdAt, g.finishedAt, null, upTo);
    }

    /**
     * The game's state after its row's {@code eventCount} events: this replica's cached copy ({@link GameCache}), or
     * rebuilt from the events, then cached once this transaction commits. Read without the row lock the events may
     * already be more than the count: that state is answered but not cached.
     */
    private Rebuilt current(GameEntity g) {
        Rebuilt r = cache.get(g.id, g.eventCount);
        if (r == null) {
            List<GameEvent> events = g.events();
            r = rebuild(g, events);
            if (events.size() == g.eventCount) {
                cache.putAfterCommit(g.id, g.eventCount, r);
            }
        }
        return r;
    }

    // --- rebuilding ---

    /** A game rebuilt from events, with the move numbers standing in its current round (for undo). */
    static final class Rebuilt {
        final Game game;
        final Deque<Integer> standingThisRound = new ArrayDeque<>();
        Game.Move lastMove;
        int lastMoveNumber;

        Rebuilt(Game game) {
            this.game = game;
        }

        void placed(Game.Move move, int moveNumber) {
            lastMove = move;
            lastMoveNumber = moveNumber;
            standingThisRound.push(moveNumber);
            if (move.roundCompleted()) {
                standingThisRound.clear();
            }
        }
    }

    /** Replays {@code events} on a new engine game: the one way a game's state is known. */
    static Rebuilt rebuild(GameEntity g, List<GameEvent> events) {
        Rebuilt r = new Rebuilt(new Game(g.seed, Level.parse(g.level)));
        for (GameEvent e : events) {
            switch (e.type) {
                case PLACE -> r.placed(r.game.place(e.slot, e.row, e.col), e.moveNumber);
                case UNDO -> {
                    r.game.undo();
                    r.standingThisRound.pop();
                }
                case HINT -> r.game.hintShown();
                case RESIGN -> {
                    // ends the game without changing the engine's state
                }
            }
        }
        return r;
    }

    private static int lastMoveNumber(List<GameEvent> events) {
        int last = 0;
        for (GameEvent e : events) {
            if (e.type == GameEvent.Type.PLACE) {
                last = Math.max(last, e.moveNumber);
            }
        }
        return last;
    }

    // --- writing ---

    private static GameEvent append(GameEntity g, GameEvent.Type type, int round) {
        GameEvent e = new GameEvent();
        e.gameId = g.id;
        e.seq = g.eventCount;
        e.type = type;
        e.round = round;
        e.createdAt = now();
        return e;
    }

    private void afterEvent(GameEntity g, Game game, GameEvent event) {
        if (g.mode == GameEntity.Mode.ONLINE_RACE && g.leftAt == null) {
            GameEntity.seen(List.of(g.id));
        }
        g.eventCount++;
        g.updatedAt = event.createdAt;
        summarize(g, game);
        if (g.status == GameEntity.Status.PLAYING && game.gameOver()) {
            g.status = GameEntity.Status.OVER;
        }
        if (g.matchId != null) {
            referee.afterEvent(g);
        }
        messages.changed(g, game, event);
        if (g.finished()) {
            g.finishedAt = event.createdAt;
            messages.finished(g, game);
        }
    }

    private static void summarize(GameEntity g, Game game) {
        g.score = game.score();
        g.assisted = game.assisted();
    }

    // --- access and errors ---

    static GameEntity owned(GameEntity g, UUID id, Requester requester) {
        if (g == null) {
            throw new NotFoundException("There is no game " + id + ".");
        }
        if (g.ownerSubject != null) {
            if (!g.ownerSubject.equals(requester.subject())) {
                throw new ForbiddenException("This game belongs to another player.");
            }
        } else if (requester.gameToken() == null || !sha256(requester.gameToken()).equals(g.guestTokenHash)) {
            throw new ForbiddenException("This is a guest's game: send the game token it was created with (header "
                    + "X-Game-Token).");
        }
        return g;
    }

    private static void refuseIfFinished(GameEntity g) {
        if (g.matchId != null) {
            MatchEntity match = MatchEntity.findById(g.matchId);
            if (match.status == MatchEntity.Status.FINISHED) {
                throw conflict("The match is over: " + match.result + ".");
            }
        }
        if (g.status == GameEntity.Status.WON) {
            throw conflict("The game won its match and is finished.");
        }
        if (g.status == GameEntity.Status.OVER) {
            throw conflict("The game is over: no piece fits any more. Its replay is at /api/games/" + g.id
                    + "/replay.");
        }
        if (g.status == GameEntity.Status.RESIGNED) {
            throw conflict("The game was resigned.");
        }
    }

    /**
     * Bounded work per game (docs/game-service.md "Limits"): refuses one more event past {@code bloc.limits}'s cap on
     * events, and one more undo or hint ({@code type}, of which the game has {@code sofar}) past its own cap. A game
     * at its event cap can still be resigned (a resignation is no replay event), so its replay is published.
     */
    private void refuseIfAtCap(GameEntity g, GameEvent.Type type, long sofar) {
        int events = Math.min(limits.eventsPerGame(), com.bloceclat.common.events.GameFinished.MAX_REPLAY_EVENTS);
        if (g.eventCount >= events) {
            throw conflict("The game has reached the cap of " + events + " events a game may have: resign it to "
                    + "finish it (its replay and score are published as for any game).");
        }
        if (type == GameEvent.Type.UNDO && sofar >= limits.undosPerGame()) {
            throw conflict("The game has used the " + limits.undosPerGame() + " undos a game may have.");
        }
        if (type == GameEvent.Type.HINT && sofar >= limits.hintsPerGame()) {
            throw conflict("The game has used the " + limits.hintsPerGame() + " hints a game may have.");
        }
    }

    /** Two players on one device play one after the other: seat 1 once seat 0's game has ended. */
    private static void refuseIfNotYourTurn(GameEntity g) {
        if (g.mode == GameEntity.Mode.TWO_PLAYERS && g.seat == 1) {
            GameEntity first = GameEntity.find("matchId = ?1 and seat = 0", g.matchId).firstResult();
            if (!first.finished()) {
                throw conflict("Player 2 plays once player 1's game has ended.");
            }
        }
    }

    private static GameEntity soloOnly(GameEntity g) {
        if (g.mode != GameEntity.Mode.SOLO) {
            throw conflict("Hints and undo are for solo games.");
        }
        return g;
    }

    static ClientErrorException conflict(String message) {
        return new ClientErrorException(message, Response.Status.CONFLICT);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Now, to the microsecond PostgreSQL stores: a time published (game-finished) is the one stored. */
    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    // --- daily challenge ---

    /** Today's daily challenge, and for a logged-in player which levels' daily game they already finished. */
    @Transactional
    public DailyView daily(Requester requester) {
        LocalDate today = daily.today();
        List<String> finished = requester.guest() ? List.of()
                : GameEntity.finishedDailyLevels(requester.subject(), today);
        List<DailyLevel> levels = new ArrayList<>();
        for (Level level : Level.values()) {
            levels.add(new DailyLevel(level.name(), requester.guest() ? null : finished.contains(level.name())));
        }
        return new DailyView(today, DailyChallenge.end(today), levels);
    }

    // --- views ---

    /**
     * Whether a game's seed may be shown now (views, sockets, the replay): a chosen seed always; the server's once the
     * game has ended; a daily seed once the game has ended and its UTC day is over (not before, even once the game
     * ended: the seed is everyone's that day; not while a game started that day is still played after it). Match
     * games carry the server's seed and follow its rule here.
     */
    public boolean seedShown(GameEntity g) {
        if (g.matchId != null && !matchSeedShown(g)) {
            return false; // every seat plays the match's one seed: not before the whole match has ended (h2)
        }
        return switch (g.seedSource) {
            case CHOSEN -> true;
            case SERVER -> g.finished();
            case DAILY -> g.finished() && daily.over(g.dailyDay);
        };
    }

    GameView view(GameEntity g, Rebuilt r) {
        Game game = r.game;
        Integer undoable = g.mode == GameEntity.Mode.SOLO && !g.finished() ? r.standingThisRound.peek() : null;
        List<PieceView> pieces = new ArrayList<>();
        Piece[] all = game.pieces();
        for (int s = 0; s < all.length; s++) {
            pieces.add(new PieceView(s, all[s].name(), List.of(all[s].rows()), game.placed(s)));
        }
        return new GameView(g.id, g.mode.name(), g.level, seedShown(g) ? g.seed : null, g.seedSource.name(),
                g.dailyDay, g.status.name(), List.of(Board.rows(game.board())), game.score(), game.streak(), game.miss(),
                game.round(), pieces, game.assisted(), game.gameOver(), r.lastMoveNumber + 1, undoable, g.eventCount,
                g.createdAt, g.finishedAt, null, null);
    }

    /** A match's game: whether its match's seed may be shown (the match has finished). */
    static boolean matchSeedShown(GameEntity g) {
        MatchEntity m = MatchEntity.findById(g.matchId);
        return MatchVisibility.seedShown(m.status == MatchEntity.Status.FINISHED);
    }

    private static Happened happened(int moveNumber, Game.Move m) {
        Rules.Outcome o = m.outcome();
        return new Happened(moveNumber, m.round(), m.slot(), m.piece().name(), m.row(), m.col(), cells(o.placed()),
                cells(o.cleared()), o.lines(), o.cellPoints(), o.multiplier(), o.linePoints(), o.cleanBonus(),
                o.points(), m.roundCompleted(), m.gameOver());
    }

    private static List<int[]> cells(long mask) {
        List<int[]> out = new ArrayList<>(Long.bitCount(mask));
        for (long m = mask; m != 0; m &= m - 1) {
            int bit = Long.numberOfTrailingZeros(m);
            out.add(new int[] {bit / Board.SIZE, bit % Board.SIZE});
        }
        return out;
    }
}
