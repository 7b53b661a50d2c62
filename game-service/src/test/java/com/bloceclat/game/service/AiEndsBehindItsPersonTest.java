package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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

    @Inject
    MatchService matches;

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

    /**
     * The person's change that decides the match for the AI (here a resignation behind it) commits while an AI
     * placement holds the AI's row, its refusals having read the match still playing: the placement is refused when
     * its judge finds the match decided, and the AI's game ends as the result says. Before, the placement was written
     * after the result, and the AI's game scored past it.
     */
    @Test
    void anAiPlacementWaitingWhileItsPersonDecidesTheMatchIsNotApplied() throws Exception {
        Requester bea = new Requester("decides-" + UUID.randomUUID(), "Bea", null);
        UUID[] ids = versusAi(bea);
        UUID match = ids[0];
        UUID person = ids[1];
        UUID ai = ids[2];
        personMoves(person, bea, 1);
        int personScore = QuarkusTransaction.requiringNew().call(() -> store.read(person).score);
        for (int n = 0; n < 10 && QuarkusTransaction.requiringNew().call(() -> store.read(ai).score) <= personScore;
                n++) {
            aiMoves(ai);
        }
        GameEntity before = QuarkusTransaction.requiringNew().call(() -> store.read(ai));
        assertTrue(before.score > personScore, before.score + " against " + personScore);

        CountDownLatch aiRowLocked = new CountDownLatch(1);
        CountDownLatch decided = new CountDownLatch(1);
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            Future<String> placement = one.submit(() -> {
                try {
                    QuarkusTransaction.requiringNew().run(() -> {
                        GameEntity g = store.locked(ai);
                        Rebuilt r = log.current(g);
                        int[] p = GameCommandsTest.lastLegal(r.game);
                        aiRowLocked.countDown();
                        await(decided);
                        moves.placed(g, r, r.lastMoveNumber() + 1, p[0], p[1], p[2]);
                    });
                    return "placed";
                } catch (ClientErrorException e) {
                    return e.getResponse().getStatus() + " " + e.getMessage();
                }
            });
            await(aiRowLocked);
            games.resign(person, bea); // decides the match: the AI is ahead; its row is held, so it plays on
            decided.countDown();
            String answer = placement.get(30, TimeUnit.SECONDS);
            assertTrue(answer.startsWith("409 The match is over: seat 1 wins"), answer);
        } finally {
            one.shutdownNow();
        }
        matches.endDecidedAiGame(ai); // what the AI driver's next pass does
        QuarkusTransaction.requiringNew().run(() -> {
            MatchEntity m = MatchEntity.findById(match);
            GameEntity its = GameEntity.findById(ai);
            assertEquals(MatchEntity.Status.FINISHED, m.status);
            assertEquals(1, m.winnerSeat);
            assertEquals(before.eventCount, its.eventCount, "no placement after the result");
            assertEquals(GameEntity.Status.WON, its.status);
            assertEquals("seat 1 wins, " + before.score + " to " + personScore, m.result);
        });
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "waited for the other thread");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A versus-AI match (MEDIUM, seed 4) of {@code person}, the AI driver kept off it: match, person's, AI's ids. */
    private UUID[] versusAi(Requester ann) {
        return QuarkusTransaction.requiringNew().call(() -> {
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
    }

    private void race(ExecutorService two, Requester ann) throws Exception {
        UUID[] ids = versusAi(ann);
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
