package com.bloceclat.engine;

import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rule invariants over many random games (seeded, so a failure reproduces). */
class PropertiesTest {
    private static final int GAMES_PER_LEVEL = 60;

    @Test
    void invariantsHoldMoveByMove() {
        Random rnd = new Random(7);
        for (Level level : Level.values()) {
            for (long seed = 0; seed < GAMES_PER_LEVEL; seed++) {
                Game game = new Game(seed, level);
                while (!game.gameOver()) {
                    long before = game.board();
                    int scoreBefore = game.score();
                    int[] m = RandomPlay.randomMove(game, rnd);
                    Game.Move move = game.place(m[0], m[1], m[2]);
                    Rules.Outcome o = move.outcome();
                    assertTrue(game.score() >= scoreBefore, "score never decreases");
                    assertEquals(scoreBefore + o.points(), game.score());
                    assertEquals(0, o.board() & o.cleared(), "cleared lines are empty");
                    assertEquals(0, Board.fullLineCount(game.board()), "no full line between moves");
                    assertEquals((before | o.placed()) & ~o.cleared(), game.board());
                    assertEquals(o.lines() == 0, o.cleared() == 0);
                    assertTrue(o.cellPoints() == move.piece().cells());
                }
                assertFalse(Arrays.stream(game.remaining()).anyMatch(p -> p != null && p.fits(game.board())),
                        "game over only when no remaining piece fits");
            }
        }
    }

    @Test
    void undoRestoresTheExactState() {
        Random rnd = new Random(11);
        for (long seed = 0; seed < 200; seed++) {
            Game game = RandomPlay.play(seed, Level.values()[(int) (seed % 5)], rnd.nextInt(40), rnd);
            if (game.gameOver()) {
                continue;
            }
            long board = game.board();
            int score = game.score();
            int streak = game.streak();
            int miss = game.miss();
            int round = game.round();
            Piece[] remaining = game.remaining();
            int[] m = RandomPlay.randomMove(game, rnd);
            Game.Move move = game.place(m[0], m[1], m[2]);
            if (move.roundCompleted() || move.gameOver()) {
                continue; // undo never crosses a deal nor reopens a finished game
            }
            game.undo();
            assertEquals(board, game.board());
            assertEquals(score, game.score());
            assertEquals(streak, game.streak());
            assertEquals(miss, game.miss());
            assertEquals(round, game.round());
            assertArrayEquals(remaining, game.remaining());
            assertTrue(game.assisted());
        }
    }

    @Test
    void aRecordedGameReplaysExactly() {
        Random rnd = new Random(3);
        for (Level level : Level.values()) {
            for (long seed = 100; seed < 120; seed++) {
                Game game = RandomPlay.play(seed, level, Integer.MAX_VALUE, rnd);
                Replay replay = Replay.fromJson(game.replay().toJson());
                assertEquals(game.replay(), replay, "JSON round trip");
                ReplayValidator.Result r = ReplayValidator.validate(replay);
                assertTrue(r.valid(), r.error());
                assertEquals(game.score(), r.score());
                assertEquals(game.round(), r.rounds());
                assertTrue(r.gameOver());
                assertFalse(r.assisted());
            }
        }
    }
}
