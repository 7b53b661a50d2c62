package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;
import jakarta.ws.rs.ClientErrorException;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Level;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.MatchEntity;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Versus AI on PostgreSQL: the AI's game ends behind its person's score while the person sends a move at the same
 * moment. The AI's change locks the person's row before the match's ({@link MatchJudge}); the person's move locks
 * only its own row, then the match's. Whichever commits first, nothing deadlocks (PostgreSQL would abort one of them)
 * and the person's game ends as WON with the match. On seed 4 (MEDIUM) the person's first legal placements reach 47
 * points in 10 moves and 50 in 11; the AI's last legal ones end at 40 in 11 (GameCommandsTest plays the same without
 * a database). The AI driver is kept off these games by a lease of another holder.
 */
@QuarkusTest
class AiEndsBehindItsPersonTest {

    @Inject
    Creation creation;

    @Inject
    GameService games;

    @Inject
    GameStore store;

    @Inject
    GameLog log;

    @Inject
    Moves moves;

    @Test
    void thePersonsGameEndsAsWonWhateverCommitsFirst() throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 5; i++) {
                race(two, new Requester("behind-" + i, "Ann", null));
            }
        } finally {
            two.shutdownNow();
        }
    }

    private void race(ExecutorService two, Requester ann) throws Exception {
        UUID[] ids = QuarkusTransaction.requiringNew().call(() -> {
            MatchEntity m = new MatchEntity();
            m.id = UUID.randomUUID();
            m.mode = GameEntity.Mode.VERSUS_AI;
            m.level = Level.MEDIUM;
            m.seed = 4;
            m.strength = 5;
            m.status = MatchEntity.Status.PLAYING;
            m.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
            m.persist();
            UUID person = creation.ofMatch(m.mode, m.level, m.seed, ann, null, m.id, 0).id;
            UUID ai = creation.ofMatch(m.mode, m.level, m.seed, null, null, m.id, MatchService.AI_SEAT).id;
            GameEntity.getEntityManager().flush();
            GameEntity.getEntityManager().createNativeQuery("UPDATE game SET ai_lease_holder = :h, "
                    + "ai_lease_until = now() + interval '1 hour' WHERE id = :id")
                    .setParameter("h", UUID.randomUUID()).setParameter("id", ai).executeUpdate();
            return new UUID[] {m.id, person, ai};
        });
        UUID match = ids[0];
        UUID person = ids[1];
        UUID ai = ids[2];
        for (int n = 1; n <= 10; n++) {
            personMoves(person, ann, n);
            aiMoves(ai);
        }

        CyclicBarrier together = new CyclicBarrier(2);
        Future<String> aiLast = two.submit(() -> {
            together.await();
            aiMoves(ai);
            return "placed";
        });
        Future<String> personNext = two.submit(() -> {
            together.await();
            try {
                personMoves(person, ann, 11);
                return "placed";
            } catch (ClientErrorException e) {
                return e.getResponse().getStatus() + " " + e.getMessage();
            }
        });
        assertEquals("placed", aiLast.get());
        String answer = personNext.get();
        assertTrue(answer.equals("placed") || answer.startsWith("409 The match is over"), answer);

        QuarkusTransaction.requiringNew().run(() -> {
            MatchEntity m = MatchEntity.findById(match);
            GameEntity mine = GameEntity.findById(person);
            GameEntity its = GameEntity.findById(ai);
            assertEquals(GameEntity.Status.OVER, its.status);
            assertEquals(40, its.score);
            assertEquals(MatchEntity.Status.FINISHED, m.status);
            assertEquals(0, m.winnerSeat);
            assertEquals(40, m.targetScore);
            assertEquals(GameEntity.Status.WON, mine.status, answer);
            assertEquals(answer.equals("placed") ? 50 : 47, mine.score, answer);
            assertNotNull(mine.finishedAt);
            assertTrue(!mine.finishedAt.isBefore(its.finishedAt), mine.finishedAt + " " + its.finishedAt);
        });
    }

    private void personMoves(UUID person, Requester ann, int moveNumber) {
        int[] p = QuarkusTransaction.requiringNew()
                .call(() -> GameCommandsTest.firstLegal(log.current(store.read(person)).game));
        games.move(person, ann, moveNumber, p[0], p[1], p[2]);
    }

    /** The AI's next placement (the last legal one), as AiTurns plays one: its row locked, then the match judged. */
    private void aiMoves(UUID ai) {
        QuarkusTransaction.requiringNew().run(() -> {
            GameEntity g = store.locked(ai);
            Rebuilt r = log.current(g);
            int[] p = GameCommandsTest.lastLegal(r.game);
            moves.placed(g, r, r.lastMoveNumber() + 1, p[0], p[1], p[2]);
        });
    }
}
