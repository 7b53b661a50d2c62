package com.bloceclat.game;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Collections;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;


import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A Kafka message waiting in the transactional outbox (written with the change it announces). */
@Entity
@Table(name = "outbox")
public class OutboxMessage extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String topic;

    @Column(name = "msg_key", nullable = false)
    public String key;

    @Column(nullable = false)
    public String payload;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    /** What the relay sends as the record's {@code bloc-match} header, or null for none (V13__outbox_live_match.sql). */
    @Column(name = "live_match")
    public String liveMatch;

    /**
     * A message to send, as the relay reads it (plain values, not managed entities); {@code liveMatch} its
     * {@code bloc-match} header, null for none.
     */
    public record Pending(long id, String topic, String key, String payload, String liveMatch) {
    }

    /**
     * A message to write: its topic, key and value, and what the relay sends as the record's {@code bloc-match} header
     * ({@link #liveMatch}; null for none).
     */
    public record Outgoing(String topic, String key, String payload, String liveMatch) {
    }

    /**
     * Writes a message into the outbox, in the caller's transaction, and answers its id; the relay sends it once that
     * has committed. Plain JDBC on the transaction's connection (one statement, no entity in Hibernate's session). A
     * move writes its message in the statement that writes the move ({@code GameRows.write}).
     */
    public static long enqueue(String topic, String key, String payload) {
        return enqueue(new Outgoing(topic, key, payload, null));
    }

    /** {@link #enqueue(String, String, String)} for a message with its header. */
    public static long enqueue(Outgoing m) {
        return Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement(insert(1) + " RETURNING id")) {
                bind(q, 1, m);
                try (ResultSet r = q.executeQuery()) {
                    r.next();
                    return r.getLong(1);
                }
            }
        });
    }

    /**
     * The insert of {@code count} messages, ids given in their order; each one's parameters set by {@link #bind}. A row
     * is stamped by the database's clock, the one the backlog's age is read against ({@code OutboxBacklog}): stamped by
     * the replica's, a replica's clock ahead hid a stuck relay for as long, and one behind made the outbox look late on
     * every replica.
     */
    public static String insert(int count) {
        return "INSERT INTO outbox (topic, msg_key, payload, created_at, live_match) VALUES "
                + String.join(", ", Collections.nCopies(count, "(?, ?, ?, now(), ?)"));
    }

    /** Sets one message's parameters of {@link #insert} from {@code at} on; answers the index after them. */
    public static int bind(PreparedStatement q, int at, Outgoing m) throws SQLException {
        q.setString(at, m.topic());
        q.setString(at + 1, m.key());
        q.setString(at + 2, m.payload());
        q.setString(at + 3, m.liveMatch());
        return at + 4;
    }

    /** A batch to send: its rows, oldest first, and whether more rows were due (cut by count or by size). */
    public record Batch(List<Pending> rows, boolean more) {
    }

    /**
     * The oldest messages due to be sent (sent ones are deleted, parked ones left aside, ones kept after a failed send
     * wait until their next attempt: {@link #retryLater}), locked, at most {@code limit} of them and no more than
     * {@code maxBytes} bytes of payload (UTF-8) together, but for a first row larger than that, which comes alone: a long game's {@code game-finished} is megabytes,
     * so a batch bounded by rows alone could read more than the heap holds, and fail again on every pass. Rows another
     * relay (another replica) holds are skipped rather than waited for, so replicas share the work. The due rows past
     * the size bound stay locked until the pass's transaction ends, so another replica may send later rows first
     * meanwhile (consumers deduplicate and keep the newest version); the next pass takes them. One statement:
     * the sizes are read from the rows' headers ({@code octet_length} of text needs no payload read), the payloads of
     * the chosen rows alone.
     */
    public static Batch nextPending(int limit, long maxBytes) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager().createNativeQuery(
                "WITH due AS (SELECT id, octet_length(payload) AS size FROM outbox WHERE parked_at IS NULL "
                + "AND (next_attempt_at IS NULL OR next_attempt_at <= clock_timestamp()) ORDER BY id LIMIT :limit "
                + "FOR UPDATE SKIP LOCKED), "
                + "counted AS (SELECT id, sum(size) OVER (ORDER BY id) AS upto, row_number() OVER (ORDER BY id) AS n, "
                + "count(*) OVER () AS due FROM due) "
                + "SELECT o.id, o.topic, o.msg_key, o.payload, o.live_match, c.due FROM counted c "
                + "JOIN outbox o ON o.id = c.id WHERE c.n = 1 OR c.upto <= :bytes ORDER BY o.id")
                .setParameter("limit", limit)
                .setParameter("bytes", maxBytes)
                .getResultList();
        List<Pending> batch = rows.stream()
                .map(r -> new Pending(((Number) r[0]).longValue(), (String) r[1], (String) r[2], (String) r[3],
                        (String) r[4]))
                .toList();
        long due = rows.isEmpty() ? 0 : ((Number) rows.get(0)[5]).longValue();
        return new Batch(batch, due == limit || batch.size() < due);
    }

    /** Deletes these messages once sent, in one statement (native: no query translation on every relay pass). */
    public static int deleteSent(List<Long> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return getEntityManager().createNativeQuery("DELETE FROM outbox WHERE id IN (:ids)")
                .setParameter("ids", ids)
                .executeUpdate();
    }

    /**
     * Puts off the next attempt of messages whose send failed for a reason that may pass: {@code first} after the first
     * failure, doubled at each one after, {@code max} at most. So rows that keep failing never take a whole batch
     * pass after pass, and the rows after them go.
     */
    public static int retryLater(List<Long> ids, Duration first, Duration max) {
        if (ids.isEmpty()) {
            return 0;
        }
        // clock_timestamp(), not now(): the relay's transaction began before its sends, which may have waited for
        // send-timeout (10 s), longer than the first waits
        return getEntityManager().createNativeQuery("UPDATE outbox SET next_attempt_at = clock_timestamp() + "
                + "make_interval(secs => least(:max, :first * power(2, least(attempts, 20)))), attempts = attempts + 1 "
                + "WHERE id IN (:ids)")
                .setParameter("first", first.toMillis() / 1000.0)
                .setParameter("max", max.toMillis() / 1000.0)
                .setParameter("ids", ids)
                .executeUpdate();
    }

    /** Sets a message aside for good, with the reason it cannot be sent; the relay never picks it again. */
    public static void park(long id, String reason) {
        getEntityManager().createNativeQuery("UPDATE outbox SET parked_at = now(), parked_reason = :reason WHERE id = :id")
                .setParameter("reason", reason.length() > 1000 ? reason.substring(0, 1000) : reason)
                .setParameter("id", id)
                .executeUpdate();
    }
}
