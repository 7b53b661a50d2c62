package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.GameRecord;
import com.bloceclat.leaderboard.Outcome;

import io.micrometer.core.instrument.MeterRegistry;

/** Judges each finished game once and keeps it: an audit row always, a record when it earns one. */
@ApplicationScoped
public class GameFinishedService {

    private static final Logger LOG = Logger.getLogger(GameFinishedService.class);

    @Inject
    MeterRegistry registry;

    Clock clock = Clock.systemUTC();

    /**
     * Judges and stores the game unless it is known already, in one transaction: when this returns, the verdict is
     * committed and the message may be acknowledged.
     *
     * @param publishedAt when the message was published (its Kafka timestamp), or null
     * @return the verdict, or null for a game already judged (nothing changed)
     */
    @Transactional
    public Verdict process(GameFinished game, Instant publishedAt) {
        if (GameAudit.known(game.gameId())) {
            count("DUPLICATE");
            return null;
        }
        GameFinished.Player player = game.player();
        Verdict verdict = Verdict.of(game.replayJson(), player != null);
        boolean stored = GameAudit.storeOnce(game.gameId(), player == null ? null : player.subject(),
                player == null ? null : player.name(), game.mode().name(), utc(game.finishedAt()),
                publishedAt == null ? null : utc(publishedAt), OffsetDateTime.now(clock), game.replayJson(), verdict);
        if (!stored) {
            count("DUPLICATE");
            return null;
        }
        if (verdict.outcome() == Outcome.RECORD) {
            GameRecord.of(game.gameId(), verdict.level(), player.subject(), player.name(), verdict.score(),
                    verdict.rounds(), utc(game.finishedAt())).persist();
        } else if (verdict.outcome() == Outcome.REJECTED) {
            LOG.infof("Game %s rejected: %s", game.gameId(), verdict.reason());
        }
        count(verdict.outcome().name());
        return verdict;
    }

    private void count(String outcome) {
        registry.counter("leaderboard.games", "outcome", outcome).increment();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
