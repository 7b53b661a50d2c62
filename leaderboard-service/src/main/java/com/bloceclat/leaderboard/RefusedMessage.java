package com.bloceclat.leaderboard;

import java.time.OffsetDateTime;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Sort;

/**
 * A {@code game-finished} message whose signature did not hold (unsigned, an unknown key, a bad signature), kept for
 * the admins with the reason. It was never judged: it is not a game, and it takes no game id (a forged message
 * cannot pre-empt the id of a real game). One row per message (topic, partition, offset), whatever the redeliveries.
 */
@Entity
@Table(name = "refused_message")
public class RefusedMessage extends PanacheEntityBase {

    /**
     * Longest payload kept here, in characters (the dead letter on game-finished-dlq carries it all, but when it is
     * too large for the broker, as a "too large" refusal's is: then this is all that is kept): enough to see
     * what a refused message was, and with {@code bloc.leaderboard.refused.max-rows} rows at most about 410 million
     * characters (up to about 1.2 GB as UTF-8 of three-byte characters), whoever floods the topic (it was 100,000
     * characters a row: 30 times that).
     */
    public static final int MAX_PAYLOAD = 4_096;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String topic;

    @Column(name = "partition", nullable = false)
    public int kafkaPartition;

    @Column(name = "\"offset\"", nullable = false)
    public long kafkaOffset;

    @Column(name = "message_key")
    public String messageKey;

    @Column(nullable = false, columnDefinition = "text")
    public String reason;

    @Column(columnDefinition = "text")
    public String payload;

    @Column(nullable = false)
    public boolean truncated;

    @Column(name = "published_at")
    public OffsetDateTime publishedAt;

    @Column(name = "refused_at", nullable = false)
    public OffsetDateTime refusedAt;

    /** Keeps a refused message unless it is known already (a redelivery). Returns whether it was stored. */
    public static boolean storeOnce(String topic, int partition, long offset, String key, String reason,
            String payload, OffsetDateTime publishedAt, OffsetDateTime refusedAt) {
        String kept = payload == null ? null : payload.replace("\u0000", "\\u0000");
        boolean truncated = kept != null && kept.length() > MAX_PAYLOAD;
        return getEntityManager().createNativeQuery("""
                INSERT INTO refused_message (topic, partition, "offset", message_key, reason, payload, truncated,
                    published_at, refused_at)
                VALUES (:topic, :partition, :offset, :key, :reason, :payload, :truncated, :publishedAt, :refusedAt)
                ON CONFLICT (topic, partition, "offset") DO NOTHING
                """)
                .setParameter("topic", topic)
                .setParameter("partition", partition)
                .setParameter("offset", offset)
                .setParameter("key", key == null ? null : clean(key, 255))
                .setParameter("reason", clean(reason, 2000))
                .setParameter("payload", truncated ? kept.substring(0, MAX_PAYLOAD) : kept)
                .setParameter("truncated", truncated)
                .setParameter("publishedAt", publishedAt)
                .setParameter("refusedAt", refusedAt)
                .executeUpdate() == 1;
    }

    private static String clean(String text, int max) {
        String c = text.replace("\u0000", "\\u0000");
        return c.length() > max ? c.substring(0, max) : c;
    }

    /** Refused messages, newest first. */
    public static List<RefusedMessage> page(int offset, int limit) {
        return findAll(Sort.descending("refusedAt").and("id", Sort.Direction.Descending))
                .range(offset, offset + limit - 1).list();
    }
}
