package com.bloceclat.game.service;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.game.GameEntity;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * What the REST API answers about games, and how it is made from a game's row and state: pure functions, the
 * decisions of what may be shown taken by the caller ({@link GameViews}).
 */
public final class Views {

    private Views() {
    }

    /**
     * A game's state as its player sees it; its seed only when {@code seedShown}; the move an undo would take back
     * only when {@code undoLeft} (within the game's caps, which the caller knows).
     */
    static GameView game(GameEntity g, Rebuilt r, boolean seedShown, boolean undoLeft) {
        Game game = r.game;
        Integer undoable = g.mode == GameEntity.Mode.SOLO && !g.finished() && undoLeft
                ? r.standingThisRound.peek() : null;
        List<PieceView> pieces = new ArrayList<>();
        Piece[] all = game.pieces();
        for (int s = 0; s < all.length; s++) {
            pieces.add(new PieceView(s, all[s].name(), List.of(all[s].rows()), game.placed(s)));
        }
        return new GameView(g.id, g.mode.name(), g.level.name(), seedShown ? g.seed : null, g.seedSource.name(),
                g.dailyDay, g.seedSource == GameEntity.SeedSource.DAILY ? g.dailyPractice : null, g.status.name(),
                List.of(Board.rows(game.board())), game.score(), game.streak(), game.miss(),
                game.round(), pieces, game.assisted(), game.gameOver(), r.lastMoveNumber() + 1, undoable, g.eventCount,
                g.createdAt, g.finishedAt, null, null);
    }

    /**
     * A match's game as shown to the other seat while that seat is behind it ({@link MatchVisibility#gridShownUpTo}):
     * board, streak, miss and score of {@code held} (the game at the end of round {@code upTo}; a placement's points
     * would tell its piece's size), no pieces; round, status and version of {@code live}.
     */
    static GameView heldBack(GameEntity g, Rebuilt live, GameViews.Grid held, int upTo) {
        Game now = live.game;
        return new GameView(g.id, g.mode.name(), g.level.name(), null, g.seedSource.name(), g.dailyDay, null,
                g.status.name(),
                List.of(Board.rows(held.board())), held.score(), held.streak(), held.miss(), now.round(), null,
                now.assisted(), now.gameOver(), live.lastMoveNumber() + 1, null, g.eventCount, g.createdAt,
                g.finishedAt, null, upTo);
    }

    /** What placement {@code moveNumber} did. */
    static Happened happened(int moveNumber, Game.Move m) {
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

    @Schema(description = "A piece of the round in progress")
    public record PieceView(int slot, String id, List<String> rows, boolean placed) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A game's state")
    public record GameView(
            UUID id,
            String mode,
            String level,
            @Schema(description = "Shown only when it tells nothing still to come: a CHOSEN seed always, a SERVER "
                    + "seed once the game has ended, a DAILY seed once its UTC day is over; a match's games once the "
                    + "whole match has finished (every seat plays the match's seed)") Long seed,
            @Schema(description = "Where the seed came from: SERVER (drawn secretly by game-service), DAILY (the "
                    + "day's challenge) or CHOSEN (given at creation, a challenge link)",
                    enumeration = { "SERVER", "DAILY", "CHOSEN" }) String seedSource,
            @Schema(description = "A daily game's UTC day (absent for other games)") LocalDate day,
            @Schema(description = "A daily game only: true when its player had started another daily game of this "
                    + "level that day before it, so it is practice (it plays the same and never counts: only a "
                    + "player's first daily game of a day and level does)") Boolean practice,
            @Schema(description = "PLAYING, OVER (no piece fits), RESIGNED, or WON (ended by winning its match)")
            String status,
            @Schema(description = "8 rows, top first; '#' filled, '.' empty") List<String> board,
            int score,
            int streak,
            int miss,
            @Schema(description = "The round in progress (= completed rounds)") int round,
            @Schema(description = "The round's three pieces; placed ones flagged. Absent for the other seat of a "
                    + "match while it is ahead of you (see gridRound)") List<PieceView> pieces,
            @Schema(description = "True once a hint or an undo was used") boolean assisted,
            boolean gameOver,
            @Schema(description = "The move number the next placement must carry") int nextMoveNumber,
            @Schema(description = "Solo: the move an undo would take back (the last placement of the round in "
                    + "progress), absent when there is none") Integer undoMoveNumber,
            @Schema(description = "Events so far; the game-events messages and live update frames carry the same "
                    + "number, so a client ignores any older than the state it shows") int version,
            OffsetDateTime createdAt,
            OffsetDateTime finishedAt,
            @Schema(description = "Guests only, at creation only: send it as header X-Game-Token on every call "
                    + "about this game") String gameToken,
            @Schema(description = "Versus AI and online race, the other seat's game while it is in a later round "
                    + "than yours and your game plays: board, streak, miss and score are as they were at the end of "
                    + "this round (yours) and pieces are left out, so that neither grid nor points show a piece of a "
                    + "round you have not been dealt; round and status are live. Absent otherwise") Integer gridRound) {

        GameView withToken(String token) {
            return new GameView(id, mode, level, seed, seedSource, day, practice, status, board, score, streak, miss, round,
                    pieces, assisted, gameOver, nextMoveNumber, undoMoveNumber, version, createdAt, finishedAt, token,
                    gridRound);
        }
    }

    @Schema(description = "What one placement did, for the UI to animate")
    public record Happened(
            int moveNumber,
            int round,
            int slot,
            String piece,
            int row,
            int col,
            @Schema(description = "Cells the piece covered, as [row, col]") List<int[]> placed,
            @Schema(description = "Cells emptied by the lines cleared, as [row, col]") List<int[]> cleared,
            int lines,
            int cellPoints,
            @Schema(description = "min(streak, 8) when lines were cleared, else 0") int multiplier,
            @Schema(description = "Line points, multiplier included") int linePoints,
            int cleanBonus,
            int points,
            boolean roundCompleted,
            boolean gameOver) {
    }

    /**
     * A finished game's replay for a viewer: the replay's own fields (RULES.md "Replay", engine {@code Replay}) and the
     * start board its seed deals, written straight from the records (no tree, no second copy as a string).
     */
    public record ReplayView(
            @JsonUnwrapped @Schema(implementation = Replay.class) Replay replay,
            @Schema(description = "The start board the seed deals, 8 rows of # and . (not part of the replay: its seed "
                    + "says it; what a viewer draws first)") List<String> start) {
        public static ReplayView of(Replay replay) {
            return new ReplayView(replay, replay.startBoard());
        }
    }

    @Schema(description = "The answer to a move: what happened and the new state")
    public record MoveView(
            @Schema(description = "True when this move number had been applied already: the same answer again")
            boolean repeated,
            Happened move,
            GameView game) {
    }

    @Schema(description = "A placement the solver suggests")
    public record Suggestion(int slot, int row, int col) {
    }

    @Schema(description = "The solver's suggestion for the rest of the round; the game is now assisted")
    public record HintView(List<Suggestion> placements, GameView game) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A match: its games, one per seat, and its result")
    public record MatchView(
            UUID id,
            String mode,
            String level,
            @Schema(description = "The AI's strength, 1 to 5") Integer strength,
            @Schema(description = "PLAYING or FINISHED") String status,
            @Schema(description = "Shown once the match is finished (no seat accepts a move any more); so are its "
                    + "games' seeds and replays") Long seed,
            @Schema(description = "Versus AI: the score of the first game to end, for the other to beat; online "
                    + "race: the score of a player who left (resigned for them after the disconnect timeout)")
            Integer targetScore,
            @Schema(description = "0 or 1; absent while playing and for a draw") Integer winnerSeat,
            String result,
            @Schema(description = "The caller's seat; play it through /api/games/{games[yourSeat].id}") int yourSeat,
            List<GameView> games,
            @Schema(description = "Guests only, at creation only: the game token of the guest's seat")
            String gameToken) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A place in the online race queue of a level")
    public record TicketView(
            UUID ticket,
            String level,
            @Schema(description = "True until another player joins") boolean waiting,
            @Schema(description = "The match, once made") UUID matchId,
            OffsetDateTime since) {
    }

    @Schema(description = "Today's daily challenge: one seed per level, the same for everyone this UTC day, shown to "
            + "no one before the day is over")
    public record DailyView(
            @Schema(description = "Today, UTC") LocalDate day,
            @Schema(description = "When today's challenge ends and its seeds may be shown (the next UTC midnight)")
            Instant endsAt,
            @Schema(description = "Every level, in order") List<DailyLevel> levels) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "Today's daily challenge on one level")
    public record DailyLevel(
            String level,
            @Schema(description = "Logged-in players only: true once they started a daily game of this level today "
                    + "(a new one is then practice: only the first started one counts on the daily board)")
            Boolean started,
            @Schema(description = "Logged-in players only: true once they finished a daily game of this level today")
            Boolean finished) {
    }
}
