package com.bloceclat.game.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.game.GameEvent;

import com.github.benmanes.caffeine.cache.Ticker;

/**
 * What {@link GameCache} holds in heap per unit of its weight ({@code bloc.game-cache.max-events}): fills a real
 * cache with the states of {@code games} games of {@code placements} placements each (played by the engine's AI at
 * strength 3 on EASY, so that they last; each state replayed from stored events as the service does,
 * {@link Rebuilt#of}), and prints the heap retained after a full GC against an empty cache's. A benchmark, not a
 * test: docs/benchmarks.md "The game cache's heap" has the command and its results.
 *
 * <pre>java -Xmx1g -XX:+UseSerialGC -cp ... com.bloceclat.game.service.GameCacheHeap 400 520</pre>
 */
public final class GameCacheHeap {

    private GameCacheHeap() {
    }

    public static void main(String[] args) throws InterruptedException {
        int games = Integer.parseInt(args[0]);
        int placements = Integer.parseInt(args[1]);
        List<List<GameEvent>> logs = new ArrayList<>();
        for (int g = 0; g < games; g++) {
            logs.add(played(1000 + g, placements));
        }
        // bounds far above what is stored, and an entry's least weight (max-events / max-size) 1: each entry weighs
        // its events plus one, and nothing is evicted
        GameCache cache = new GameCache(Integer.MAX_VALUE, Integer.MAX_VALUE, Duration.ofDays(1),
                Ticker.systemTicker(), true);
        long before = retained();
        for (int g = 0; g < games; g++) {
            List<GameEvent> log = logs.get(g);
            cache.store(new GameCache.Committed(log.get(0).gameId, Rebuilt.of(1000 + g, Level.EASY, log)));
        }
        long after = retained();
        long weight = cache.weight();
        System.out.printf("%d games in the cache, weight %d (events + 1 a game): %.1f MB retained, %.1f bytes a unit"
                + " of weight%n", cache.size(), weight, (after - before) / 1e6, (double) (after - before) / weight);
    }

    /** A game's stored events: up to {@code placements} placements (fewer if it ends), as a move path writes them. */
    private static List<GameEvent> played(long seed, int placements) {
        Game game = new Game(seed, Level.EASY);
        while (!game.gameOver() && game.placements() < placements) {
            SelfPlay.playRound(game, 3, seed * 31 + game.round());
        }
        UUID id = UUID.randomUUID();
        List<GameEvent> log = new ArrayList<>();
        for (Event e : game.events()) {
            if (e instanceof Event.Place p) {
                GameEvent stored = new GameEvent();
                stored.gameId = id;
                stored.seq = log.size();
                stored.type = GameEvent.Type.PLACE;
                stored.round = p.round();
                stored.slot = p.slot();
                stored.row = p.row();
                stored.col = p.col();
                stored.moveNumber = log.size() + 1;
                log.add(stored);
            }
        }
        return log;
    }

    private static long retained() throws InterruptedException {
        Runtime r = Runtime.getRuntime();
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return r.totalMemory() - r.freeMemory();
    }
}
