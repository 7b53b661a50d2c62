package com.bloceclat.game.service;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import com.bloceclat.game.GameEntity;

/**
 * The AI games' leases (columns {@code ai_lease_holder}, {@code ai_lease_until} of {@code game}, migration V11):
 * which replica plays an AI game's turns, until when. Times are the database's clock. Written here only, by native
 * SQL (the entity does not map them), so that a placement's entity update never touches a lease.
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

    private static EntityManager em() {
        return GameEntity.getEntityManager();
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
        List<?> rows = em().createNativeQuery("SELECT id, updated_at, "
                + "CASE WHEN ai_lease_holder IS NULL THEN ai_lease_until END FROM game "
                + "WHERE mode = 'VERSUS_AI' AND seat = 1 AND status = 'PLAYING' AND updated_at <= :dueBy "
                + "AND (ai_lease_until IS NULL OR ai_lease_until < now() OR (ai_lease_holder IS NULL "
                + "AND ai_lease_until < now() + make_interval(secs => :ahead))) "
                + "ORDER BY greatest(updated_at + make_interval(secs => :pace), coalesce(ai_lease_until, updated_at)) "
                + "LIMIT :max FOR UPDATE SKIP LOCKED")
                .setParameter("dueBy", dueBy).setParameter("ahead", seconds(ahead)).setParameter("pace", seconds(pace))
                .setParameter("max", max)
                .getResultList();
        if (rows.isEmpty()) {
            return List.of();
        }
        List<Claim> claims = new ArrayList<>(rows.size());
        for (Object row : rows) {
            Object[] r = (Object[]) row;
            claims.add(new Claim((UUID) r[0], time(r[1]), r[2] == null ? null : time(r[2])));
        }
        em().createNativeQuery("UPDATE game SET ai_lease_holder = :holder, ai_lease_until = "
                + "greatest(updated_at + make_interval(secs => :pace), now(), ai_lease_until) "
                + "+ make_interval(secs => :ttl) WHERE id IN (:ids)")
                .setParameter("holder", holder).setParameter("pace", seconds(pace)).setParameter("ttl", seconds(ttl))
                .setParameter("ids", claims.stream().map(Claim::gameId).toList()).executeUpdate();
        return claims;
    }

    /**
     * Parks a game {@code holder} holds whose AI waits for its person: held by no replica until {@code pace} from
     * now, then claimed again by any replica's pass.
     */
    @Transactional
    public void park(UUID gameId, UUID holder, Duration pace) {
        em().createNativeQuery("UPDATE game SET ai_lease_holder = NULL, "
                + "ai_lease_until = now() + make_interval(secs => :secs) WHERE id = :id AND ai_lease_holder = :holder")
                .setParameter("secs", seconds(pace)).setParameter("id", gameId).setParameter("holder", holder)
                .executeUpdate();
    }

    /**
     * Extends {@code holder}'s lease on a game to {@code from} plus {@code ttl} from now, in the caller's transaction
     * or a new one; answers false when {@code holder} no longer holds it (it ran out and another replica took it).
     */
    @Transactional
    public boolean renew(UUID gameId, UUID holder, Duration from, Duration ttl) {
        return em().createNativeQuery("UPDATE game SET ai_lease_until = now() + make_interval(secs => :secs) "
                + "WHERE id = :id AND ai_lease_holder = :holder")
                .setParameter("secs", seconds(from.plus(ttl))).setParameter("id", gameId)
                .setParameter("holder", holder).executeUpdate() == 1;
    }

    /** Gives up {@code holder}'s lease on a game, if it still holds it: any replica may claim it at once. */
    @Transactional
    public void release(UUID gameId, UUID holder) {
        em().createNativeQuery("UPDATE game SET ai_lease_holder = NULL, ai_lease_until = NULL "
                + "WHERE id = :id AND ai_lease_holder = :holder")
                .setParameter("id", gameId).setParameter("holder", holder).executeUpdate();
    }

    /** Gives up every lease of {@code holder} (a replica stopping). Answers how many. */
    @Transactional
    public int releaseAll(UUID holder) {
        return em().createNativeQuery("UPDATE game SET ai_lease_holder = NULL, ai_lease_until = NULL "
                + "WHERE ai_lease_holder = :holder")
                .setParameter("holder", holder).executeUpdate();
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static OffsetDateTime time(Object value) {
        if (value instanceof OffsetDateTime t) {
            return t;
        }
        if (value instanceof Instant t) {
            return t.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof Timestamp t) {
            return t.toInstant().atOffset(ZoneOffset.UTC);
        }
        if (value instanceof java.time.ZonedDateTime t) {
            return t.toOffsetDateTime();
        }
        throw new IllegalStateException("unexpected timestamp type " + value.getClass());
    }
}
