package com.bloceclat.game;

import java.nio.file.Path;

/**
 * Runs both load benchmarks (docs/benchmarks.md) against one packaged game-service replica on real PostgreSQL and
 * Kafka started in this JVM: {@code LoadBench GAMES THINK_MS MOVES RACES}.
 */
public final class LoadBench {

    private LoadBench() {
    }

    public static void main(String[] args) throws Exception {
        int games = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        long thinkMs = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        int moves = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int races = args.length > 3 ? Integer.parseInt(args[3]) : 50;
        try (PackagedGameService stack = new PackagedGameService(Path.of("target", "load-bench"))) {
            PackagedGameService.Replica replica = stack.start();
            // warm-up: the JIT and the connection pool
            MoveLoad.run(replica.http(), 50, 100, 20);
            MoveLoad.run(replica.http(), games, thinkMs, moves);
            LiveLoad.run(replica.http(), replica.ws(), races, thinkMs, moves);
        }
        System.exit(0);
    }
}
