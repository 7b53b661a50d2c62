package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.EntityManager;

import com.bloceclat.game.GameEntity;

/**
 * The statements of {@link GameRetention}'s steps, each run in a transaction of its own by the pass: what they lock,
 * check again under the lock and delete is what that class's guarantees say.
 */
final class RetentionSteps {

    private RetentionSteps() {
    }

    /** What one transaction deleted, and whether there may be more to delete. */
    record Step(GameRetention.Pruned pruned, boolean more) {
    }

    /** Solo games, oldest first (index {@code game_solo_created}), locked; as many as the events' bound lets go. */
    static Step soloGames(OffsetDateTime cutoff, GameRetention.Policy policy) {
        int batch = policy.batch();
        List<?> rows = em().createNativeQuery("SELECT id, event_count FROM game WHERE match_id IS NULL "
                + "AND created_at < :cutoff AND updated_at < :cutoff ORDER BY created_at LIMIT :batch "
                + "FOR UPDATE SKIP LOCKED").setParameter("cutoff", cutoff).setParameter("batch", batch)
                .getResultList();
        List<UUID> ids = new ArrayList<>();
        int events = 0;
        for (Object row : rows) {
            Object[] r = (Object[]) row;
            int count = ((Number) r[1]).intValue();
            if (!ids.isEmpty() && events + count > policy.events()) {
                break; // the rest in the next transaction
            }
            ids.add((UUID) r[0]);
            events += count;
        }
        if (ids.isEmpty()) {
            return new Step(GameRetention.NONE, false);
        }
        int deletedEvents = deleteGames(ids);
        return new Step(new GameRetention.Pruned(ids.size(), deletedEvents, 0, 0, 0),
                rows.size() == batch || ids.size() < rows.size());
    }

    /**
     * Matches whose games are all unchanged, oldest first (index {@code match_created}): their games locked (a match
     * with a game locked by someone else, or changed meanwhile, is left to a later pass), then the matches, as many as
     * the events' bound lets go.
     */
    static Step matches(OffsetDateTime cutoff, GameRetention.Policy policy) {
        List<UUID> candidates = uuids(em().createNativeQuery("SELECT m.id FROM match m WHERE m.created_at < :cutoff "
                + "AND NOT EXISTS (SELECT 1 FROM game g WHERE g.match_id = m.id AND g.updated_at >= :cutoff) "
                + "ORDER BY m.created_at LIMIT :batch").setParameter("cutoff", cutoff)
                .setParameter("batch", policy.batch()).getResultList());
        if (candidates.isEmpty()) {
            return new Step(GameRetention.NONE, false);
        }
        // locked and checked again under the lock: a game changed since the candidates' read is not returned
        Set<UUID> locked = new HashSet<>(uuids(em().createNativeQuery("SELECT id FROM game WHERE match_id IN (:m) "
                + "AND updated_at < :cutoff FOR UPDATE SKIP LOCKED").setParameter("m", candidates)
                .setParameter("cutoff", cutoff).getResultList()));
        Map<UUID, List<UUID>> gamesOf = new HashMap<>();
        Map<UUID, Integer> eventsOf = new HashMap<>();
        for (Object row : em().createNativeQuery("SELECT match_id, id, event_count FROM game WHERE match_id IN (:m)")
                .setParameter("m", candidates).getResultList()) {
            Object[] r = (Object[]) row;
            gamesOf.computeIfAbsent((UUID) r[0], k -> new ArrayList<>()).add((UUID) r[1]);
            eventsOf.merge((UUID) r[0], ((Number) r[2]).intValue(), Integer::sum);
        }
        List<UUID> whole = new ArrayList<>();
        int events = 0;
        boolean cut = false;
        for (UUID m : candidates) {
            if (!locked.containsAll(gamesOf.getOrDefault(m, List.of()))) {
                continue; // a seat being played or held: a later pass
            }
            int count = eventsOf.getOrDefault(m, 0);
            if (!whole.isEmpty() && events + count > policy.events()) {
                cut = true; // the rest in the next transaction
                break;
            }
            whole.add(m);
            events += count;
        }
        List<UUID> matches = whole.isEmpty() ? List.of() : uuids(em().createNativeQuery(
                "SELECT id FROM match WHERE id IN (:m) FOR UPDATE SKIP LOCKED").setParameter("m", whole)
                .getResultList());
        if (matches.isEmpty()) {
            // every candidate is being played or held (by a move, or another replica's pass): a later pass
            return new Step(GameRetention.NONE, false);
        }
        List<UUID> games = matches.stream().flatMap(m -> gamesOf.getOrDefault(m, List.of()).stream()).toList();
        int deletedEvents = games.isEmpty() ? 0 : deleteGames(games);
        int tickets = em().createNativeQuery("DELETE FROM race_ticket WHERE match_id IN (:m)")
                .setParameter("m", matches).executeUpdate();
        int invitations = em().createNativeQuery("DELETE FROM private_race WHERE match_id IN (:m)")
                .setParameter("m", matches).executeUpdate();
        em().createNativeQuery("DELETE FROM match WHERE id IN (:m)").setParameter("m", matches).executeUpdate();
        // more when the batch was full or cut by the events' bound; each transaction deletes at least one match, so
        // candidates held by someone else (found again first) never keep the step going for ever
        return new Step(new GameRetention.Pruned(games.size(), deletedEvents, matches.size(), tickets, invitations),
                candidates.size() == policy.batch() || cut);
    }

    /** Race tickets and private-race invitations that never became a match, oldest first. */
    static Step unmatched(OffsetDateTime cutoff, int batch) {
        // match_id checked again outside the sub-select: it is what PostgreSQL checks again on a row changed meanwhile
        int tickets = em().createNativeQuery("DELETE FROM race_ticket WHERE id IN (SELECT id FROM race_ticket "
                + "WHERE match_id IS NULL AND created_at < :cutoff AND seen_at < :cutoff ORDER BY created_at "
                + "LIMIT :batch) AND match_id IS NULL AND seen_at < :cutoff").setParameter("cutoff", cutoff)
                .setParameter("batch", batch).executeUpdate();
        int invitations = em().createNativeQuery("DELETE FROM private_race WHERE code IN (SELECT code FROM "
                + "private_race WHERE match_id IS NULL AND created_at < :cutoff AND expires_at < :cutoff "
                + "ORDER BY created_at LIMIT :batch) AND match_id IS NULL").setParameter("cutoff", cutoff)
                .setParameter("batch", batch).executeUpdate();
        return new Step(new GameRetention.Pruned(0, 0, 0, tickets, invitations),
                tickets == batch || invitations == batch);
    }

    /** Deletes games this transaction has locked, their events first; answers the events deleted. */
    private static int deleteGames(List<UUID> ids) {
        int events = em().createNativeQuery("DELETE FROM game_event WHERE game_id IN (:ids)")
                .setParameter("ids", ids).executeUpdate();
        em().createNativeQuery("DELETE FROM game WHERE id IN (:ids)").setParameter("ids", ids).executeUpdate();
        return events;
    }

    private static List<UUID> uuids(List<?> rows) {
        return rows.stream().map(UUID.class::cast).toList();
    }

    private static EntityManager em() {
        return GameEntity.getEntityManager();
    }
}
