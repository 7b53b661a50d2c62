package com.bloceclat.leaderboard.messaging;

import java.time.Instant;
import java.util.UUID;

/** The canary as game-service publishes it on {@value CanaryConsumer#CHANNEL}. */
public record CanaryMessage(UUID id, Instant sentAt) {
}
