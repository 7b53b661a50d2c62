package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.GameRecord;
import com.bloceclat.leaderboard.Outcome;


/** Judges each finished game once and keeps it: an audit row always, a record when it earns one. */
@ApplicationScoped
public class GameFinishedService {

    private static final Logger LOG = Logger.getLogger(GameFinishedService.class);

    Clock clock = Clock.systemUTC();

    /** A finished game as received, with when it was published (its Kafka timestamp), or null. */
    public record Received(GameFinished game, Instant publishedAt) {
    }

    /**
     * Judges and stores each game unless it is known already, all in one transaction: when this returns, every
     * verdict is committed and the messages may be acknowledged.
     *
     * @return each game's verdict, in order, or null for a game already judged (nothing changed for it)
     */
    @Transactional
    public List<Verdict> process(List<Received> games) {
        List<Verdict> verdicts = new ArrayList<>(games.size());
        for (Received received : games) {
            verdicts.add(store(received.game(), received.publishedAt(), OffsetDateTime.now(clock)));
        }
        return verdicts;
    }

    private Verdict store(GameFinished game, Instant publishedAt, OffsetDateTime now) {
        GameFinished.Player player = game.player();
        Verdict verdict = Verdict.of(game.replayJson(), player != null);
        boolean stored = GameAudit.storeOnce(game.gameId(), player == null ? null : player.subject(),
                player == null ? null : player.name(), game.mode().name(), utc(game.finishedAt()),
                publishedAt == null ? null : utc(publishedAt), now, game.replayJson(), verdict);
        if (!stored) {
            return null;
        }
        if (verdict.outcome() == Outcome.RECORD) {
            GameRecord.of(game.gameId(), verdict.level(), player.subject(), player.name(), verdict.score(),
                    verdict.rounds(), utc(game.finishedAt())).persist();
        } else if (verdict.outcome() == Outcome.REJECTED) {
            LOG.infof("Game %s rejected: %s", game.gameId(), verdict.reason());
        }
        return verdict;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
