package com.bloceclat.game.messaging;

import java.time.Instant;
import java.util.UUID;

/** A synthetic message sent through Kafka to prove the path from game-service to leaderboard-service works. */
public record Canary(UUID id, Instant sentAt) {
}
