package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.GameRecord;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.RefusedMessage;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

/**
 * Judges each finished game once and keeps it: an audit row always, a record when the {@link RecordPolicy} grants
 * one. Keeps each refused message once, apart from the games.
 */
@ApplicationScoped
public class GameFinishedService {

    private static final Logger LOG = Logger.getLogger(GameFinishedService.class);

    /** The outcome of an item already stored (a redelivered message): nothing changed. */
    public static final String REDELIVERED = "REDELIVERED";

    /** The outcome of a refused message kept for the admins. */
    public static final String REFUSED = "REFUSED";

    Clock clock = Clock.systemUTC();

    @Inject
    LeaderboardConfig config;

    /** One message to store. */
    public sealed interface Item permits Received, Refused {
    }

    /** A finished game whose signature held, with when it was published (its Kafka timestamp), or null. */
    public record Received(GameFinished game, Instant publishedAt) implements Item {
    }

    /** A message whose signature did not hold, where it was and why it was refused. */
    public record Refused(String topic, int partition, long offset, String key, String payload, String reason,
            Instant publishedAt) implements Item {
    }

    /**
     * Stores each item unless it is known already, all in one transaction: when this returns, everything is committed
     * and the messages may be acknowledged.
     *
     * @return each item's outcome, in order: the game's {@link Outcome} name, {@value #REFUSED}, or
     *         {@value #REDELIVERED} for an item already stored (nothing changed for it)
     */
    @Transactional
    public List<String> process(List<? extends Item> items) {
        List<String> outcomes = new ArrayList<>(items.size());
        OffsetDateTime now = OffsetDateTime.now(clock);
        for (Item item : items) {
            if (item instanceof Received r) {
                outcomes.add(store(r.game(), r.publishedAt(), now));
            } else if (item instanceof Refused r) {
                outcomes.add(RefusedMessage.storeOnce(r.topic(), r.partition(), r.offset(), r.key(), r.reason(),
                        r.payload(), utc(r.publishedAt()), now) ? REFUSED : REDELIVERED);
            }
        }
        return outcomes;
    }

    private String store(GameFinished game, Instant publishedAt, OffsetDateTime now) {
        GameFinished.Player player = game.player();
        Verdict validated = Verdict.of(game.replayJson());
        RecordPolicy.Facts facts = new RecordPolicy.Facts(game.mode(), player != null, game.seedSource(), game.day(),
                game.practice(), game.createdAt(), game.finishedAt());
        RecordPolicy.Decision decision = RecordPolicy.decide(validated, facts,
                taken(validated, facts, player == null ? null : player.subject(), game.gameId()), now.toInstant(),
                config.clockSkew());
        Verdict verdict = validated.judged(decision);
        boolean stored = GameAudit.storeOnce(game.gameId(), player == null ? null : player.subject(),
                player == null ? null : player.name(), game.mode().name(), game.seedSource().name(), game.day(),
                game.practice(), utc(game.createdAt()), utc(game.finishedAt()), utc(publishedAt), now, game.replayJson(), verdict);
        if (!stored) {
            return REDELIVERED;
        }
        if (verdict.outcome() == Outcome.RECORD) {
            GameRecord.of(game.gameId(), verdict.level(), verdict.seed(),
                    decision.board() == RecordPolicy.Board.DAILY ? game.day() : null, player.subject(), player.name(),
                    verdict.score(), verdict.rounds(), utc(game.finishedAt())).persist();
        } else if (verdict.outcome() == Outcome.REJECTED || verdict.outcome() == Outcome.DUPLICATE) {
            // a daily game's reason can name the day's pieces: the log says it no more than the admin audit does
            LOG.infof("Game %s %s: %s", game.gameId(), verdict.outcome(),
                    game.seedSource() == GameFinished.SeedSource.DAILY ? "(a daily game's reason: see its audit)"
                            : verdict.reason());
        }
        return verdict.outcome().name();
    }

    /**
     * What the boards already hold for a game (the policy's {@link RecordPolicy.Taken}): the record on its seed, the
     * player's daily record of its day and level; only what its seed source needs is looked up.
     */
    public static RecordPolicy.Taken taken(Verdict verdict, RecordPolicy.Facts facts, String subject, UUID gameId) {
        if (verdict.outcome() == Outcome.REJECTED) {
            return RecordPolicy.Taken.NOTHING;
        }
        if (facts.seedSource() == GameFinished.SeedSource.DAILY) {
            return new RecordPolicy.Taken(null, GameRecord.holderOfDaily(subject, facts.day(), verdict.level(),
                    gameId));
        }
        if (facts.seedSource() == GameFinished.SeedSource.CHOSEN) {
            return RecordPolicy.Taken.NOTHING;
        }
        return new RecordPolicy.Taken(GameRecord.holderOfSeed(verdict.level(), verdict.seed(), gameId), null);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
