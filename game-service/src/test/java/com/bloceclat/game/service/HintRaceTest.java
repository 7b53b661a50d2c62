package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;
import jakarta.ws.rs.ClientErrorException;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Level;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.GameView;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Two hints asked at once at cap - 1 (the test configuration's cap, 3: two hints recorded first), on PostgreSQL: both
 * are asked about the same position (the check before the solver's call passes twice), then both are recorded at the
 * same moment from two threads, each
 * in its own transaction as {@link GameService#hint} does after the solver's answer. The row lock serialises them and
 * the cap and version are checked again under it: one hint, one 409, whatever the interleaving. The solver is left
 * out (its answer is given), so the test does not depend on a solver being free for two searches at once.
 */
@QuarkusTest
class HintRaceTest {

    @Inject
    Creation creation;

    @Inject
    Hints hints;

    @Inject
    GameConfig.Limits limits;

    @Test
    void twoHintsAskedAtOnceAtCapMinusOneGiveOneHint() throws Exception {
        Requester ann = new Requester("hint-race", "Ann", null);
        GameView g = QuarkusTransaction.requiringNew()
                .call(() -> creation.solo(new GameService.NewGame(Level.EASY, 45L, false), ann));
        int cap = limits.hintsPerGame();
        for (int n = 1; n < cap; n++) {
            Hints.Asked asked = QuarkusTransaction.requiringNew().call(() -> hints.ask(g.id(), ann));
            QuarkusTransaction.requiringNew().run(() -> hints.record(g.id(), ann, asked, List.of()));
        }
        Hints.Asked first = QuarkusTransaction.requiringNew().call(() -> hints.ask(g.id(), ann));
        Hints.Asked second = QuarkusTransaction.requiringNew().call(() -> hints.ask(g.id(), ann));

        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService two = Executors.newFixedThreadPool(2);
        List<String> outcomes = new ArrayList<>();
        try {
            List<Future<String>> running = new ArrayList<>();
            for (Hints.Asked asked : List.of(first, second)) {
                Callable<String> record = () -> {
                    together.await();
                    try {
                        QuarkusTransaction.requiringNew().run(() -> hints.record(g.id(), ann, asked, List.of()));
                        return "hint";
                    } catch (ClientErrorException e) {
                        return String.valueOf(e.getResponse().getStatus());
                    }
                };
                running.add(two.submit(record));
            }
            for (Future<String> f : running) {
                outcomes.add(f.get());
            }
        } finally {
            two.shutdownNow();
        }
        Collections.sort(outcomes);
        assertEquals(List.of("409", "hint"), outcomes);
        long recorded = QuarkusTransaction.requiringNew().call(() -> GameEvent.count("gameId = ?1 and type = ?2",
                g.id(), GameEvent.Type.HINT));
        assertEquals(cap, recorded);
    }
}
