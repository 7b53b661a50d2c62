package com.bloceclat.game.service;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.bloceclat.game.Jdbc;

/**
 * The AI games' leases (columns {@code ai_lease_holder}, {@code ai_lease_until} of {@code game}, migration V11):
 * which replica plays an AI game's turns, until when. Times are the database's clock. Written here only, by plain
 * JDBC on the transaction's connection ({@link Jdbc}: no Hibernate session, and so no flush before each statement),
 * and never by the game row's own update ({@code GameRows}), so that a placement never touches a lease.
 * <p>
 * Guarantees: a game is claimed by one replica at a time (the due games are locked with {@code FOR UPDATE SKIP
 * LOCKED} and only those without a lease, or whose lease ran out, are taken); a holder renews, parks or releases only
 * a lease it still holds; a lease that is not renewed runs out, and the game is then another replica's to claim. A
 * parked game (its AI waiting for its person) has a time but no holder.
 */
@ApplicationScoped
public class AiLeases {

    /**
     * A game claimed: its id, its last change (its next turn is due one pace after it), and until when it was
     * parked waiting for its person (null if it was not).
     */
    public record Claim(UUID gameId, OffsetDateTime updatedAt, OffsetDateTime parkedUntil) {
    }

    /**
     * Claims for {@code holder} up to {@code max} AI games still playing whose last change is at or before
     * {@code dueBy} (by the application's clock, which writes {@code updated_at}) and that no replica holds (no
     * lease, or one run out; a game parked for its person once its park ends within {@code ahead}): each leased
     * until {@code ttl} past its due time. Rows another transaction holds are skipped, not waited for. The earliest
     * due first (a parked game by the end of its park, so that games waiting for their person for long never crowd
     * out the others).
     */
    @Transactional
    public List<Claim> claim(UUID holder, OffsetDateTime dueBy, Duration ahead, Duration pace, Duration ttl,
            int max) {
        if (max <= 0) {
            return List.of();
        }
        return Jdbc.work(c -> {
            List<Claim> claims = new ArrayList<>();
            try (PreparedStatement q = c.prepareStatement("SELECT id, updated_at, "
                    + "CASE WHEN ai_lease_holder IS NULL THEN ai_lease_until END FROM game "
                    + "WHERE mode = 'VERSUS_AI' AND seat = 1 AND status = 'PLAYING' AND updated_at <= ? "
                    + "AND (ai_lease_until IS NULL OR ai_lease_until < now() OR (ai_lease_holder IS NULL "
                    + "AND ai_lease_until < now() + make_interval(secs => ?))) "
                    + "ORDER BY greatest(updated_at + make_interval(secs => ?), coalesce(ai_lease_until, updated_at)) "
                    + "LIMIT ? FOR UPDATE SKIP LOCKED")) {
                q.setObject(1, dueBy);
                q.setDouble(2, seconds(ahead));
                q.setDouble(3, seconds(pace));
                q.setInt(4, max);
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        claims.add(new Claim(r.getObject(1, UUID.class), r.getObject(2, OffsetDateTime.class),
                                r.getObject(3, OffsetDateTime.class)));
                    }
                }
            }
            if (claims.isEmpty()) {
                return claims;
            }
            try (PreparedStatement u = c.prepareStatement("UPDATE game SET ai_lease_holder = ?, ai_lease_until = "
                    + "greatest(updated_at + make_interval(secs => ?), now(), ai_lease_until) "
                    + "+ make_interval(secs => ?) WHERE id = ANY (?)")) {
                u.setObject(1, holder);
                u.setDouble(2, seconds(pace));
                u.setDouble(3, seconds(ttl));
                u.setArray(4, c.createArrayOf("uuid", claims.stream().map(Claim::gameId).toArray()));
                u.executeUpdate();
            }
            return claims;
        });
    }

    /**
     * Parks a game {@code holder} holds whose AI waits for its person: held by no replica until {@code pace} from
     * now, then claimed again by any replica's pass.
     */
    @Transactional
    public void park(UUID gameId, UUID holder, Duration pace) {
        update("UPDATE game SET ai_lease_holder = NULL, ai_lease_until = now() + make_interval(secs => ?) "
                + "WHERE id = ? AND ai_lease_holder = ?", seconds(pace), gameId, holder);
    }

    /**
     * Extends {@code holder}'s lease on a game to {@code from} plus {@code ttl} from now, in the caller's transaction
     * or a new one; answers false when {@code holder} no longer holds it (it ran out and another replica took it).
     */
    @Transactional
    public boolean renew(UUID gameId, UUID holder, Duration from, Duration ttl) {
        return update("UPDATE game SET ai_lease_until = now() + make_interval(secs => ?) "
                + "WHERE id = ? AND ai_lease_holder = ?", seconds(from.plus(ttl)), gameId, holder) == 1;
    }

    /** Gives up {@code holder}'s lease on a game, if it still holds it: any replica may claim it at once. */
    @Transactional
    public void release(UUID gameId, UUID holder) {
        update("UPDATE game SET ai_lease_holder = NULL, ai_lease_until = NULL WHERE id = ? AND ai_lease_holder = ?",
                gameId, holder);
    }

    /** Gives up every lease of {@code holder} (a replica stopping). Answers how many. */
    @Transactional
    public int releaseAll(UUID holder) {
        return update("UPDATE game SET ai_lease_holder = NULL, ai_lease_until = NULL WHERE ai_lease_holder = ?",
                holder);
    }

    /** One statement with its parameters in order; answers the rows it changed. */
    private static int update(String sql, Object... parameters) {
        return Jdbc.work(c -> {
            try (PreparedStatement u = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    u.setObject(i + 1, parameters[i]);
                }
                return u.executeUpdate();
            }
        });
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
