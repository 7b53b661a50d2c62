package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.NotFoundException;

import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.MatchView;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Matches: creating them (online races paired by {@link RaceQueue}), their views, and their live updates; their result
 * is decided by {@link MatchJudge}.
 */
@ApplicationScoped
public class MatchService {

    public static final int AI_SEAT = 1;

    @Inject
    Creation creation;

    @Inject
    GameViews games;

    @Inject
    MatchJudge judge;

    @Inject
    GameStore store;

    @Inject
    ClientLimits limits;

    /** A match against the AI: seat 0 is the person, seat 1 the AI, on the same seed and start board. */
    @Transactional
    public MatchView versusAi(Level level, int strength, Requester requester) {
        MatchEntity m = newMatch(GameEntity.Mode.VERSUS_AI, level, strength);
        String token = requester.guest() ? Creation.newGameToken() : null;
        creation.ofMatch(m.mode, level, m.seed, requester, token, m.id, 0);
        creation.ofMatch(m.mode, level, m.seed, null, null, m.id, AI_SEAT);
        return view(m, 0, token);
    }

    /** Two players on one device: two games on one seed and start board, played one after the other. */
    @Transactional
    public MatchView twoPlayers(Level level, Requester requester) {
        MatchEntity m = newMatch(GameEntity.Mode.TWO_PLAYERS, level, null);
        String token = requester.guest() ? Creation.newGameToken() : null;
        creation.ofMatch(m.mode, level, m.seed, requester, token, m.id, 0);
        creation.ofMatch(m.mode, level, m.seed, requester, token, m.id, 1);
        return view(m, 0, token);
    }

    /**
     * An online race between two given players at once (a private race's link): seat 0 the host, seat 1 the guest.
     * Each one's game counts among that player's open games ({@link ClientLimits}); the caller has checked the limit.
     */
    @Transactional
    public MatchView raceBetween(Level level, Requester host, Requester guest) {
        MatchEntity m = newMatch(GameEntity.Mode.ONLINE_RACE, level, null);
        GameEntity hostGame = creation.ofMatch(m.mode, level, m.seed, host, null, m.id, 0);
        GameEntity guestGame = creation.ofMatch(m.mode, level, m.seed, guest, null, m.id, 1);
        limits.started(ClientKey.ofSubject(host.subject()), hostGame.id, null);
        limits.started(ClientKey.ofSubject(guest.subject()), guestGame.id, null);
        return view(m, 1, null);
    }

    private static MatchEntity newMatch(GameEntity.Mode mode, Level level, Integer strength) {
        MatchEntity m = new MatchEntity();
        m.id = UUID.randomUUID();
        m.mode = mode;
        m.level = level;
        m.seed = Creation.randomSeed();
        m.strength = strength;
        m.status = MatchEntity.Status.PLAYING;
        m.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
        m.persist();
        return m;
    }

    @Transactional
    public MatchView state(UUID id, Requester requester) {
        MatchEntity m = store.match(id);
        if (m == null) {
            throw new NotFoundException("There is no match " + id + ".");
        }
        List<GameEntity> seats = store.seats(m.id);
        for (GameEntity g : seats) {
            if (Refusals.ownedBy(g, requester)) {
                if (g.mode == GameEntity.Mode.ONLINE_RACE && !g.finished()) {
                    GameEntity.seen(List.of(g.id));
                }
                return view(m, g.seat, null);
            }
        }
        throw new jakarta.ws.rs.ForbiddenException("This match is between other players.");
    }

    /**
     * Versus AI: the person's game ended behind the AI's score, which decided the match while the AI's game was still
     * playing; that game has won and ends now ({@link MatchJudge#endDecidedAiGame}). The AI driver calls this when it
     * finds its game's match decided.
     */
    @Transactional
    public void endDecidedAiGame(UUID gameId) {
        judge.endDecidedAiGame(gameId);
    }

    /**
     * The match as seat {@code yourSeat} may see it ({@link MatchVisibility}): the seed once the match has finished,
     * and the other seat's grid held back to the end of your round while it is ahead of you.
     */
    private MatchView view(MatchEntity m, int yourSeat, String token) {
        List<GameEntity> all = store.seats(m.id);
        GameEntity mine = all.get(yourSeat);
        boolean finished = m.status == MatchEntity.Status.FINISHED;
        int myRound = games.roundOf(mine);
        boolean heldBack = false;
        List<GameView> seats = new java.util.ArrayList<>(all.size());
        for (GameEntity g : all) {
            OptionalInt upTo = g.seat == yourSeat ? OptionalInt.empty() : MatchVisibility.gridShownUpTo(m.mode,
                    finished, mine.finished(), myRound, games.roundOf(g));
            heldBack |= upTo.isPresent();
            seats.add(upTo.isPresent() ? games.heldBack(g, upTo.getAsInt()) : games.of(g));
        }
        // a race's score to beat is the score of the player who left: from their last round, which may be later than
        // yours, so it is held back with their grid (its difference to the score shown would tell a piece's size)
        Integer target = heldBack ? null : m.targetScore;
        return new MatchView(m.id, m.mode.name(), m.level.name(), m.strength, m.status.name(),
                MatchVisibility.seedShown(finished) ? m.seed : null, target, m.winnerSeat, m.result,
                yourSeat, seats, token);
    }

    /**
     * A change of a match's game (a {@code game-events} message) as seat {@code viewerSeat} may be shown it live: as
     * published, or, when it is the other seat's and puts it in a later round than the viewer's
     * ({@link MatchVisibility#gridShownUpTo}), with its board, streak and score as they were at the end of the
     * viewer's round, without the placement (piece, slot, row, col) and with {@code gridRound} set; round, status,
     * move number and version stay live. Empty when the match or the viewer's game is not found.
     */
    @Transactional
    public Optional<JsonNode> liveUpdateFor(UUID matchId, int viewerSeat, JsonNode event) {
        if (event.path("seat").asInt(viewerSeat) == viewerSeat
                || !MatchVisibility.holdsBack(event.path("mode").asText())) {
            return Optional.of(event);
        }
        MatchEntity m = store.match(matchId);
        List<GameEntity> seats = m == null ? List.of() : store.seats(matchId); // both rows in one query
        GameEntity viewer = seatOf(seats, viewerSeat);
        GameEntity other = seatOf(seats, event.path("seat").asInt());
        if (viewer == null || other == null) {
            return Optional.empty();
        }
        OptionalInt upTo = MatchVisibility.gridShownUpTo(m.mode, m.status == MatchEntity.Status.FINISHED,
                viewer.finished(), games.roundOf(viewer), event.path("round").asInt());
        if (upTo.isEmpty()) {
            return Optional.of(event);
        }
        GameViews.Grid held = games.gridUpTo(other, upTo.getAsInt());
        ObjectNode shown = ((ObjectNode) event).deepCopy();
        shown.remove(List.of("piece", "slot", "row", "col"));
        ArrayNode board = shown.putArray("board");
        for (String row : Board.rows(held.board())) {
            board.add(row);
        }
        shown.put("streak", held.streak());
        shown.put("score", held.score()); // a placement's points would tell the size of a piece not yet dealt
        shown.put("gridRound", upTo.getAsInt());
        return Optional.of(shown);
    }

    /** The game of {@code seat} among a match's games, or null (a seat number no game has). */
    private static GameEntity seatOf(List<GameEntity> seats, int seat) {
        return seats.stream().filter(g -> g.seat != null && g.seat == seat).findFirst().orElse(null);
    }
}
